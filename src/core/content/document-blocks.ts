import type { Code, PhrasingContent, RootContent } from 'mdast';
import { badRequest } from '../errors.js';
import type { BlockInfo, GitbookBlock } from './blocks/mdast.js';
import { ALERT_TYPES, HINT_STYLES, URL_ATTRIBUTES, alertStyle, type AlertType, type Attributes, type HintStyle } from './blocks/model.js';

/**
 * GitBook's blocks (blocks/) in the JSON document, in the public API's node shapes, and back: hint
 * (`data.style`), tabs of `tabs-item` (`data.title`), code with `data.title`, `overflow` and `lineNumbers`,
 * expandable (`data.defaultExpanded`, its summary and body as the `expandable-title` and `expandable-body`
 * fragments), embed (`data.url`), content-ref and file (`data.ref`). Where the public format has no room
 * for what the Markdown holds, the node says it in fields of our own, so that a document read and written
 * back stores the same Markdown: a GitHub alert is a hint with `data.alert` (`NOTE`, ...); an embed's, a
 * content reference's or a file's caption is its `nodes`; a `{% code %}` around anything but one fence
 * (or around a fence with no attributes) is a `code` block whose `nodes` are blocks; and a tag whose
 * attributes are not just its fields in the platform's order (unknown ones, another order) keeps them in
 * `data.attributes`, `[name, value]` pairs.
 */

type Data = Readonly<Record<string, unknown>>;

/** A document block as this module makes it (document.ts's DocumentBlock, structurally). */
interface Made {
  readonly object: 'block';
  readonly type: string;
  readonly key?: string;
  readonly data?: Data;
  readonly isVoid?: boolean;
  readonly nodes?: unknown[];
  readonly fragments?: unknown[];
}

/** What document.ts lends for the way in: its keyed block maker, and its converter of nested mdast. */
export interface ToDocument {
  block(type: string, nodes: () => Made['nodes'], extra?: Partial<Made>): Made;
  blocks(nodes: readonly RootContent[]): Made[];
  /** The code block a fence makes. */
  code(node: Code, data: Data): Made;
  /** The reference a Markdown URL stands for. */
  refOf(url: string): unknown;
  key(): string;
}

/** What document.ts lends for the way back. */
export interface FromDocument {
  toBlocks(nodes: unknown, where: string): RootContent[];
  toPhrasing(nodes: unknown, where: string): PhrasingContent[];
  plainText(nodes: PhrasingContent[]): string;
  /** The Markdown URL of a node's `data.ref`. */
  refUrl(data: unknown, where: string): string;
  /** The fence a `code` block's code-lines make. */
  fence(node: Record<string, any>, where: string): Code;
}

/** The document types of blocks, for the top-level list. */
export const DOCUMENT_BLOCK_TYPES = ['hint', 'tabs', 'expandable', 'embed', 'content-ref', 'file'] as const;

/** A tag's fields as the document's `data` holds them, and how they print (the platform's order). */
const FIELDS = {
  hint: [['style', 'style']],
  tab: [['title', 'title']],
  code: [['title', 'title'], ['overflow', 'overflow'], ['lineNumbers', 'lineNumbers']],
} as const satisfies Record<string, readonly (readonly [attribute: string, field: string])[]>;

/** The attributes a block's fields print, in the platform's order. */
function attributesOf(kind: keyof typeof FIELDS, data: Data): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, field] of FIELDS[kind]) {
    const value = data[field];
    if (value !== undefined) out.push([name, String(value)]);
  }
  return out;
}

const sameAttributes = (a: Attributes, b: Attributes) => a.length === b.length && a.every(([name, value], i) => b[i][0] === name && b[i][1] === value);

/** `data.attributes` when the attributes as written are not those the fields print. */
function keptAttributes(kind: keyof typeof FIELDS, data: Data, written: Attributes): Data {
  return sameAttributes(attributesOf(kind, data), written) ? data : { ...data, attributes: written.map(([name, value]) => [name, value]) };
}

/** The fields of a `{% code %}` tag's attributes. */
function codeFields(attributes: Attributes): Data {
  const data: Record<string, unknown> = {};
  for (const [name, value] of attributes) {
    if (name === 'title' && data.title === undefined) data.title = value;
    if (name === 'overflow' && data.overflow === undefined) data.overflow = value;
    if (name === 'lineNumbers' && data.lineNumbers === undefined) data.lineNumbers = value === 'true';
  }
  return data;
}

/** A void block keeps `nodes` only for a caption it has. */
function captioned(made: Made): Made {
  if (made.nodes?.length) return made;
  const { nodes: _none, ...rest } = made;
  return rest;
}

/** The document block of a `gitbookBlock` node. */
export function blockToDocument(node: GitbookBlock, to: ToDocument): Made {
  const block = node.block;
  const held = () => to.blocks(node.children);
  switch (block.kind) {
    case 'hint':
      return to.block('hint', held, { data: keptAttributes('hint', { style: block.style }, block.attributes) });
    case 'alert':
      return to.block('hint', held, { data: { style: alertStyle(block.alert), alert: block.alert } });
    case 'tabs':
      return to.block('tabs', () => node.children.map((tab) => blockToDocument(tab as GitbookBlock, to)));
    case 'tab':
      return to.block('tabs-item', held, { data: keptAttributes('tab', { title: block.title }, block.attributes) });
    case 'code': {
      const data = keptAttributes('code', codeFields(block.attributes), block.attributes);
      const [only] = node.children;
      if (node.children.length === 1 && only.type === 'code' && block.attributes.length > 0) return to.code(only, data);
      // Around blocks: `attributes` says it is a tag where no field does (a bare one, which a fence would print as no tag).
      return to.block('code', held, { data: block.attributes.length === 0 ? { attributes: [] } : data });
    }
    case 'details': {
      const own = to.key();
      const title = { object: 'fragment', fragment: 'expandable-title', type: 'expandable-title', key: to.key(), nodes: [summaryParagraph(block.summary, to)] };
      const body = { object: 'fragment', fragment: 'expandable-body', type: 'expandable-body', key: to.key(), nodes: held() };
      return { object: 'block', type: 'expandable', key: own, isVoid: true, data: { defaultExpanded: block.open }, fragments: [title, body] };
    }
    case 'embed':
      return captioned(to.block('embed', held, { isVoid: true, data: { url: node.url ?? block.url } }));
    case 'content-ref':
    case 'file':
      return captioned(to.block(block.kind, held, { isVoid: true, data: { ref: to.refOf(node.url ?? block.url) } }));
  }
}

/** A summary as the title paragraph: its text as written (it prints back as written). */
function summaryParagraph(summary: string, to: ToDocument): Made {
  return to.block('paragraph', () => (summary === '' ? [] : [{ object: 'text', leaves: [{ object: 'leaf', text: summary, marks: [] }] }]));
}

const fail = (where: string, message: string) => badRequest(`document${where}: ${message}`);

/** A tag attribute's value from a document: a string without a line break or `%}`, which would end the tag. */
function tagValue(value: unknown, where: string): string {
  if (typeof value !== 'string') throw fail(where, 'must be a string');
  if (/[\r\n]|%\}/.test(value)) throw fail(where, 'must not hold a line break or "%}"');
  return value;
}

/** What the reading side makes of a known attribute's value (parse.ts, codeFields). */
const readValue = (name: string, value: string): unknown => (name === 'lineNumbers' ? value === 'true' : value);

/** What a block is without the attribute: a hint is `info`, a tab untitled. */
const ABSENT: Partial<Record<keyof typeof FIELDS, Record<string, unknown>>> = { hint: { style: 'info' }, tab: { title: '' } };

/**
 * The attributes to print: the fields', in the platform's order; or, with `data.attributes`, those as
 * written, where a field that says otherwise than its attribute (a client changed it) wins and a field the
 * tag did not have is added.
 */
function printedAttributes(kind: keyof typeof FIELDS, data: Record<string, any>, where: string): Attributes {
  const fields = attributesOf(kind, data).map(([name, value]): [string, string] => [name, tagValue(value, `${where}.data.${name}`)]);
  if (data.attributes === undefined) return fields;
  if (!Array.isArray(data.attributes)) throw fail(`${where}.data.attributes`, 'must be an array of [name, value] pairs');
  const seen = new Set<string>();
  const out = data.attributes.map((pair: unknown, i: number): [string, string] => {
    const at = `${where}.data.attributes[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || !/^[A-Za-z][\w-]*$/.test(pair[0])) throw fail(at, 'must be a [name, value] pair');
    const [name, value] = [pair[0], tagValue(pair[1], `${at}[1]`)];
    const known = FIELDS[kind].find(([attribute]) => attribute === name);
    // Only the first of a name is read (parse.ts): later ones stay as written.
    if (!known || seen.has(name)) return [name, value];
    seen.add(name);
    const field = data[known[1]];
    return field === undefined || field === readValue(name, value) ? [name, value] : [name, String(field)];
  });
  for (const [name, value] of fields) {
    const field = FIELDS[kind].find(([attribute]) => attribute === name)![1];
    if (!seen.has(name) && ABSENT[kind]?.[field] !== data[field]) out.push([name, value]);
  }
  return out;
}

/** The `gitbookBlock` node of a block's info and children. */
function gitbookBlock(block: BlockInfo, children: RootContent[], url?: string): GitbookBlock {
  return { type: 'gitbookBlock', block, children: children as GitbookBlock['children'], ...(url !== undefined && { url }) };
}

/** The URL attribute's pair, for the printer to fill from the node's `url`. */
const urlAttribute = (kind: keyof typeof URL_ATTRIBUTES, url: string): Attributes => [[URL_ATTRIBUTES[kind], url]];

/** A document block of one of DOCUMENT_BLOCK_TYPES (or a `code` one that needs a tag) back into mdast. */
export function documentToBlock(node: Record<string, any>, where: string, from: FromDocument): RootContent {
  const data = (node.data ?? {}) as Record<string, any>;
  const children = () => from.toBlocks(node.nodes, `${where}.nodes`);
  switch (node.type) {
    case 'hint': {
      if (!(HINT_STYLES as readonly unknown[]).includes(data.style ?? 'info')) throw fail(`${where}.data.style`, `must be one of ${HINT_STYLES.join(', ')}`);
      if (data.alert !== undefined) {
        if (!(ALERT_TYPES as readonly unknown[]).includes(data.alert)) throw fail(`${where}.data.alert`, `must be one of ${ALERT_TYPES.join(', ')}`);
        return gitbookBlock({ kind: 'alert', alert: data.alert as AlertType, attributes: [] }, children());
      }
      const style = (data.style ?? 'info') as HintStyle;
      return gitbookBlock({ kind: 'hint', style, attributes: printedAttributes('hint', { ...data, style }, where) }, children());
    }
    case 'tabs': {
      const tabs = (Array.isArray(node.nodes) ? node.nodes : []).map((raw: unknown, i: number) => {
        const at = `${where}.nodes[${i}]`;
        const tab = raw as Record<string, any>;
        if (tab === null || typeof tab !== 'object' || tab.type !== 'tabs-item') throw fail(`${at}.type`, 'must be tabs-item');
        const tabData = (tab.data ?? {}) as Record<string, any>;
        const title = tabData.title === undefined ? '' : tagValue(tabData.title, `${at}.data.title`);
        return gitbookBlock({ kind: 'tab', title, attributes: printedAttributes('tab', { ...tabData, title }, at) }, from.toBlocks(tab.nodes, `${at}.nodes`));
      });
      if (tabs.length === 0) throw fail(`${where}.nodes`, 'must hold at least one tabs-item');
      return gitbookBlock({ kind: 'tabs', attributes: [] }, tabs);
    }
    case 'code': {
      if (data.overflow !== undefined && data.overflow !== 'scroll' && data.overflow !== 'wrap') throw fail(`${where}.data.overflow`, 'must be scroll or wrap');
      if (data.lineNumbers !== undefined && typeof data.lineNumbers !== 'boolean') throw fail(`${where}.data.lineNumbers`, 'must be a boolean');
      const attributes = printedAttributes('code', data, where);
      const info = { kind: 'code', attributes, ...(data.title !== undefined && { title: String(data.title) }), lineNumbers: data.lineNumbers === true, wrap: data.overflow === 'wrap' } as const;
      // A fence has a code-line at least (an empty one, ''); no nodes is a tag around nothing.
      const lines = Array.isArray(node.nodes) && node.nodes.length > 0 && node.nodes.every((line: any) => line?.type === 'code-line');
      return gitbookBlock(info, lines ? [from.fence(node, where)] : children());
    }
    case 'expandable': {
      const fragments: Record<string, any>[] = Array.isArray(node.fragments) ? node.fragments : [];
      const fragment = (name: string) => fragments.find((each) => each !== null && typeof each === 'object' && (each.fragment ?? each.type) === name);
      const title = fragment('expandable-title');
      const body = fragment('expandable-body');
      const paragraphs: Record<string, any>[] = Array.isArray(title?.nodes) ? title.nodes : [];
      const summary = paragraphs.map((paragraph, i) => from.plainText(from.toPhrasing(paragraph?.nodes, `${where}.fragments.title.nodes[${i}].nodes`))).join(' ');
      if (/[\r\n]|<\/summary>/i.test(summary)) throw fail(`${where}.fragments`, 'an expandable-title must not hold a line break or "</summary>"');
      const held = body === undefined ? [] : from.toBlocks(body.nodes, `${where}.fragments.body.nodes`);
      return gitbookBlock({ kind: 'details', summary, open: data.defaultExpanded === true, attributes: [] }, held);
    }
    case 'embed': {
      const url = tagValue(data.url, `${where}.data.url`);
      if (url === '') throw fail(`${where}.data.url`, 'must not be empty');
      return gitbookBlock({ kind: 'embed', url, attributes: urlAttribute('embed', url) }, children(), url);
    }
    case 'content-ref':
    case 'file': {
      const kind = node.type as 'content-ref' | 'file';
      const url = tagValue(from.refUrl(node.data, where), `${where}.data.ref`);
      return gitbookBlock({ kind, url, attributes: urlAttribute(kind, url) }, children(), url);
    }
    default:
      throw fail(`${where}.type`, `block type ${JSON.stringify(node.type)} is not supported`);
  }
}
