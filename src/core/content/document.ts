import type {
  Blockquote,
  Code,
  Definition,
  Heading,
  Image,
  Link,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
  TableRow,
} from 'mdast';
import { badRequest } from '../errors.js';
import { blockToDocument, documentToBlock, DOCUMENT_BLOCK_TYPES, type FromDocument, type ToDocument } from './document-blocks.js';
import { headingAnchor, newSlugger, parseMarkdown, plainText, stringifyMarkdown } from './markdown.js';
import { MAX_MARKDOWN_DEPTH } from './markdown-limits.js';

/**
 * The `document` format of page bodies: the public API's JSONDocument (`{object:'document', data, nodes}`),
 * made from and turned back into Markdown through mdast. Blocks: paragraph, heading-1..3 (deeper headings
 * become heading-3), list-unordered, list-ordered (`data.start`), list-tasks (items' `data.checked`),
 * list-item (`data.spread` on a loose list or item: ours), blockquote, code (`data.syntax`, `code-line` children), divider, images/image (accepted on
 * input), `table` in a shape of our own (rows `table-row`, cells `table-cell`, `data.align`: the public
 * format's table is a grid of records), and raw HTML as a `code` block with `data.syntax` `html` and
 * `data.raw` true. Inlines: `link` and `inline-image` with
 * `data.ref` (`{kind:'url',url}`, `{kind:'page',page}`, `{kind:'file',file}`, `{kind:'anchor',anchor,page?}`);
 * text leaves with marks bold, italic, strikethrough, code. GitBook's blocks (hint, tabs, code options,
 * expandable, embed, content-ref, file) are document-blocks.ts's. Every block and inline has a `key`,
 * numbered in document order, and headings a `meta.id`: their anchor.
 */

/** A mark on a text leaf. */
export type DocumentMark = {
  readonly object: 'mark';
  readonly type: 'bold' | 'italic' | 'strikethrough' | 'code';
};

/** A run of text with the same marks. */
export type DocumentLeaf = {
  readonly object: 'leaf';
  readonly text: string;
  readonly marks: DocumentMark[];
  /** Ours: a leaf of one line break that is a soft one in the Markdown (the public format reads `\n` as a hard one). */
  readonly soft?: true;
};

/** Text: leaves in order. */
export type DocumentText = {
  readonly object: 'text';
  readonly leaves: DocumentLeaf[];
};

/** What a link or an image points at. */
export type ContentRef =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'page'; readonly page: string }
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'anchor'; readonly anchor: string; readonly page?: string };

/** An inline: a link around text, or an image. */
export type DocumentInline = {
  readonly object: 'inline';
  readonly type: 'link' | 'inline-image';
  readonly key?: string;
  readonly data: { readonly ref: ContentRef; readonly alt?: string; readonly title?: string };
  readonly isVoid?: boolean;
  readonly nodes?: (DocumentText | DocumentInline)[];
};

/** A block. */
export type DocumentBlock = {
  readonly object: 'block';
  readonly type: string;
  readonly key?: string;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly meta?: { readonly id: string };
  readonly isVoid?: boolean;
  readonly nodes?: (DocumentBlock | DocumentInline | DocumentText)[];
  /** An expandable's title and body (document-blocks.ts). */
  readonly fragments?: unknown[];
};

/** What a block or an inline holds: its `nodes`, and an expandable's fragments (which hold blocks in turn). */
export function innerNodes<Node>(node: { readonly nodes?: readonly Node[]; readonly fragments?: readonly unknown[] }): Node[] {
  return [...(node.nodes ?? []), ...((node.fragments ?? []) as Node[])];
}

/** A block at the top level of a document: one of TOP_LEVEL_BLOCK_TYPES. */
export type TopLevelBlock = DocumentBlock & { readonly type: (typeof TOP_LEVEL_BLOCK_TYPES)[number] };

/** A whole document. */
export type JSONDocument = {
  readonly object: 'document';
  readonly data: Readonly<Record<string, unknown>>;
  readonly nodes: TopLevelBlock[];
};

/** The types of the blocks a document holds at its top level. */
export const TOP_LEVEL_BLOCK_TYPES = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'blockquote',
  'code',
  'divider',
  'images',
  'table',
  ...DOCUMENT_BLOCK_TYPES,
] as const;

/** The reference a Markdown URL stands for: `/pages/<id>[#anchor]`, `/files/<id>`, `#anchor`, else a URL. */
export function refOfUrl(url: string): ContentRef {
  const page = /^\/pages\/([A-Za-z0-9_-]+)(?:#(.+))?$/.exec(url);
  if (page) return page[2] !== undefined ? { kind: 'anchor', anchor: page[2], page: page[1] } : { kind: 'page', page: page[1] };
  const file = /^\/files\/([A-Za-z0-9_-]+)$/.exec(url);
  if (file) return { kind: 'file', file: file[1] };
  if (url.startsWith('#') && url.length > 1) return { kind: 'anchor', anchor: url.slice(1) };
  return { kind: 'url', url };
}

/** The Markdown URL of a reference (the inverse of refOfUrl). */
export function urlOfRef(ref: ContentRef): string {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return ref.page !== undefined ? `/pages/${ref.page}#${ref.anchor}` : `#${ref.anchor}`;
    default:
      return ref.url;
  }
}

type MarkType = DocumentMark['type'];

/** Converts Markdown into a JSONDocument. */
export function markdownToDocument(markdown: string): JSONDocument {
  return documentOfRoot(parseMarkdown(markdown)).document;
}

/**
 * A parsed Markdown body as a JSONDocument, with the top-level blocks each child of the root made (none
 * for a link definition): what ties a block's `key` to the Markdown it came from (author/revert-blocks.ts).
 */
export function documentOfRoot(root: Root): { document: JSONDocument; blocksOf: TopLevelBlock[][] } {
  const definitions = new Map<string, Definition>();
  for (const node of root.children) if (node.type === 'definition') definitions.set(node.identifier, node);
  const slugger = newSlugger();
  let counter = 0;
  const key = () => `k${++counter}`;

  const leaf = (text: string, marks: readonly MarkType[]): DocumentLeaf => ({
    object: 'leaf',
    text,
    marks: marks.map((type) => ({ object: 'mark', type })),
  });

  /** Inline content as text nodes and inlines, leaves of one text node merged until an inline breaks them. */
  function inlines(nodes: readonly PhrasingContent[]): (DocumentText | DocumentInline)[] {
    const out: (DocumentText | DocumentInline)[] = [];
    let leaves: DocumentLeaf[] = [];
    const flush = () => {
      if (leaves.length > 0) out.push({ object: 'text', leaves });
      leaves = [];
    };
    const walk = (node: PhrasingContent, marks: readonly MarkType[]) => {
      switch (node.type) {
        case 'text':
          // A line break alone between two inlines is a soft one here, and says so: a leaf of one line break is a hard one.
          leaves.push(node.value === '\n' ? { ...leaf('\n', marks), soft: true } : leaf(node.value, marks));
          return;
        case 'inlineCode':
          leaves.push(leaf(node.value, [...marks, 'code']));
          return;
        case 'break':
          leaves.push(leaf('\n', marks));
          return;
        case 'strong':
          node.children.forEach((child) => walk(child, [...marks, 'bold']));
          return;
        case 'emphasis':
          node.children.forEach((child) => walk(child, [...marks, 'italic']));
          return;
        case 'delete':
          node.children.forEach((child) => walk(child, [...marks, 'strikethrough']));
          return;
        case 'link':
        case 'linkReference': {
          const url = node.type === 'link' ? node.url : definitions.get(node.identifier)?.url;
          if (url === undefined) {
            node.children.forEach((child) => walk(child, marks));
            return;
          }
          flush();
          const title = node.type === 'link' ? node.title : definitions.get(node.identifier)?.title;
          const own = key();
          out.push({
            object: 'inline',
            type: 'link',
            key: own,
            data: { ref: refOfUrl(url), ...(title ? { title } : {}) },
            isVoid: false,
            nodes: inlines(node.children),
          });
          return;
        }
        case 'image':
        case 'imageReference': {
          const url = node.type === 'image' ? node.url : definitions.get(node.identifier)?.url;
          if (url === undefined) return;
          flush();
          out.push({ object: 'inline', type: 'inline-image', key: key(), data: { ref: refOfUrl(url), ...(node.alt ? { alt: node.alt } : {}) }, isVoid: true });
          return;
        }
        default:
          // Footnote references and raw inline HTML keep their text.
          leaves.push(leaf(plainText(node) || ('value' in node ? String(node.value) : ''), marks));
      }
    };
    nodes.forEach((node) => walk(node, []));
    flush();
    return out;
  }

  /** A block, keyed before its children so that keys follow document order. */
  function block(type: string, nodes: () => DocumentBlock['nodes'], extra: Partial<DocumentBlock> = {}): DocumentBlock {
    const own = key();
    return { object: 'block', type, key: own, data: {}, ...extra, nodes: nodes() };
  }

  /** A fence as a code block of code-lines, with the options of a `{% code %}` around it. */
  function code(node: Code, data: Readonly<Record<string, unknown>>): DocumentBlock {
    const lines = () => node.value.split('\n').map((line) => block('code-line', () => [{ object: 'text', leaves: [leaf(line, [])] }]));
    return block('code', lines, { data: { ...(node.lang && { syntax: node.lang }), ...data } });
  }

  const toDocument: ToDocument = {
    block: block as ToDocument['block'],
    blocks: (nodes) => blocks(nodes),
    code: (node, data) => code(node, data),
    refOf: refOfUrl,
    key,
  };

  function blocks(nodes: readonly RootContent[]): DocumentBlock[] {
    const out: DocumentBlock[] = [];
    for (const node of nodes) {
      switch (node.type) {
        case 'paragraph':
          out.push(block('paragraph', () => inlines(node.children)));
          break;
        case 'heading': {
          const id = headingAnchor(plainText(node), slugger);
          out.push(block(`heading-${Math.min(node.depth, 3)}`, () => inlines(node.children), { meta: { id } }));
          break;
        }
        case 'list': {
          const tasks = node.children.some((item) => typeof item.checked === 'boolean');
          const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
          const start = node.ordered && !tasks && node.start !== undefined && node.start !== null && node.start !== 1 ? { start: node.start } : {};
          // `spread` (ours): a loose list, or item, prints with blank lines between its parts, as it was written.
          const data = { ...start, ...(node.spread && { spread: true }) };
          const items = () =>
            node.children.map((item) => {
              const itemData = { ...(typeof item.checked === 'boolean' && { checked: item.checked }), ...(item.spread && { spread: true }) };
              return block('list-item', () => blocks(item.children), Object.keys(itemData).length > 0 ? { data: itemData } : {});
            });
          out.push(block(type, items, { data }));
          break;
        }
        case 'blockquote':
          out.push(block('blockquote', () => blocks(node.children)));
          break;
        case 'code':
          out.push(code(node, {}));
          break;
        case 'gitbookBlock':
          out.push(blockToDocument(node, toDocument) as DocumentBlock);
          break;
        case 'thematicBreak':
          out.push({ object: 'block', type: 'divider', key: key(), data: {}, isVoid: true });
          break;
        case 'table': {
          const rows = () =>
            node.children.map((row) => block('table-row', () => row.children.map((cell) => block('table-cell', () => inlines(cell.children)))));
          out.push(block('table', rows, { data: { align: node.align ?? [] } }));
          break;
        }
        case 'html': {
          // The public format has no raw HTML block: a code block marked `raw` keeps it, and prints back as HTML.
          const lines = () => node.value.split('\n').map((line) => block('code-line', () => [{ object: 'text', leaves: [leaf(line, [])] }]));
          out.push(block('code', lines, { data: { syntax: 'html', raw: true } }));
          break;
        }
        case 'footnoteDefinition':
          out.push(block('paragraph', () => [{ object: 'text', leaves: [leaf(`[^${node.identifier}]: ${plainText(node)}`, [])] }]));
          break;
        default:
          // Definitions are folded into the links that use them; frontmatter is page metadata, not body.
          break;
      }
    }
    return out;
  }

  // Every block blocks() makes at the top level is of a top-level type (nested ones are list items, code lines, rows).
  const blocksOf = root.children.map((child) => blocks([child]) as TopLevelBlock[]);
  return { document: { object: 'document', data: {}, nodes: blocksOf.flat() }, blocksOf };
}

/** Where in the input document a problem is, for error messages. */
type Where = string;

const fail = (where: Where, message: string) => badRequest(`document${where}: ${message}`);

function asArray(value: unknown, where: Where): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw fail(where, 'must be an array');
  return value;
}

function asObject(value: unknown, where: Where): Record<string, any> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw fail(where, 'must be an object');
  return value as Record<string, any>;
}

function refUrl(data: unknown, where: Where): string {
  const ref = asObject(asObject(data, `${where}.data`).ref, `${where}.data.ref`);
  const text = (field: string) => {
    if (typeof ref[field] !== 'string' || ref[field] === '') throw fail(`${where}.data.ref.${field}`, 'must be a non-empty string');
    return ref[field] as string;
  };
  switch (ref.kind) {
    case 'url':
      return urlOfRef({ kind: 'url', url: text('url') });
    case 'page':
      return urlOfRef({ kind: 'page', page: text('page') });
    case 'file':
      return urlOfRef({ kind: 'file', file: text('file') });
    case 'anchor':
      return urlOfRef({ kind: 'anchor', anchor: text('anchor'), ...(ref.page !== undefined && { page: text('page') }) });
    default:
      throw fail(`${where}.data.ref.kind`, 'must be url, page, file or anchor');
  }
}

const MARKS: Record<string, 'strong' | 'emphasis' | 'delete' | 'inlineCode'> = {
  bold: 'strong',
  italic: 'emphasis',
  strikethrough: 'delete',
  code: 'inlineCode',
};

/** A leaf read back: its text and its marks as mdast node types. */
interface Run {
  readonly text: string;
  readonly marks: ReadonlySet<string>;
  /** A soft line break (DocumentLeaf.soft). */
  readonly soft: boolean;
}

const WRAPPING_MARKS = ['strong', 'emphasis', 'delete'] as const;

/**
 * Runs of marked text back into nested mdast phrasing: a mark shared by consecutive runs wraps them once
 * (`**bold _both_**`, not `**bold** _**both**_`), the longest shared run first.
 */
function nestRuns(runs: readonly Run[], applied: ReadonlySet<string>): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  for (let i = 0; i < runs.length; ) {
    const open = WRAPPING_MARKS.filter((mark) => runs[i].marks.has(mark) && !applied.has(mark));
    if (open.length === 0) {
      const run = runs[i++];
      // A leaf that is one line break is a hard break (a soft one stays inside its text).
      if (run.text === '\n' && !run.marks.has('inlineCode') && !run.soft) out.push({ type: 'break' });
      else out.push(run.marks.has('inlineCode') ? { type: 'inlineCode', value: run.text } : { type: 'text', value: run.text });
      continue;
    }
    let best: (typeof WRAPPING_MARKS)[number] = open[0];
    let bestLength = 0;
    for (const mark of open) {
      let length = 0;
      while (i + length < runs.length && runs[i + length].marks.has(mark)) length++;
      if (length > bestLength) [best, bestLength] = [mark, length];
    }
    out.push({ type: best, children: nestRuns(runs.slice(i, i + bestLength), new Set([...applied, best])) } as PhrasingContent);
    i += bestLength;
  }
  return out;
}

/** Text and inline nodes back into mdast phrasing content. */
function toPhrasing(nodes: unknown, where: Where): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  asArray(nodes, where).forEach((raw, i) => {
    const at = `${where}[${i}]`;
    const node = asObject(raw, at);
    if (node.object === 'text') {
      const runs: Run[] = [];
      asArray(node.leaves, `${at}.leaves`).forEach((rawLeaf, j) => {
        const leafAt = `${at}.leaves[${j}]`;
        const leaf = asObject(rawLeaf, leafAt);
        if (typeof leaf.text !== 'string') throw fail(`${leafAt}.text`, 'must be a string');
        const marks = asArray(leaf.marks, `${leafAt}.marks`).map((mark, k) => {
          const type = asObject(mark, `${leafAt}.marks[${k}]`).type;
          if (!(type in MARKS)) throw fail(`${leafAt}.marks[${k}].type`, 'must be bold, italic, strikethrough or code');
          return MARKS[type];
        });
        if (leaf.text !== '') runs.push({ text: leaf.text, marks: new Set(marks), soft: leaf.soft === true });
      });
      out.push(...nestRuns(runs, new Set()));
    } else if (node.object === 'inline' && node.type === 'link') {
      const link: Link = { type: 'link', url: refUrl(node.data, at), children: toPhrasing(node.nodes, `${at}.nodes`) };
      if (typeof node.data.title === 'string') link.title = node.data.title;
      out.push(link);
    } else if (node.object === 'inline' && node.type === 'inline-image') {
      const image: Image = { type: 'image', url: refUrl(node.data, at), alt: typeof node.data.alt === 'string' ? node.data.alt : '' };
      out.push(image);
    } else {
      throw fail(at, `is not text, a link or an inline-image (object ${JSON.stringify(node.object)}, type ${JSON.stringify(node.type)})`);
    }
  });
  return out;
}


/** The text of a `code` block's code-lines. */
function codeLines(node: Record<string, any>, where: Where): string[] {
  return asArray(node.nodes, `${where}.nodes`).map((rawLine, j) => {
    const lineAt = `${where}.nodes[${j}]`;
    const line = asObject(rawLine, lineAt);
    if (line.type !== 'code-line') throw fail(`${lineAt}.type`, 'must be code-line');
    return toPhrasing(line.nodes, `${lineAt}.nodes`)
      .map((part) => plainText(part as RootContent))
      .join('');
  });
}

/** A `code` block's code-lines as a fence. */
function fence(node: Record<string, any>, where: Where): Code {
  const data = (node.data ?? {}) as Record<string, any>;
  const code: Code = { type: 'code', value: codeLines(node, where).join('\n') };
  if (typeof data.syntax === 'string' && data.syntax !== '') code.lang = data.syntax;
  return code;
}

/** What document-blocks.ts needs of this module to read GitBook's blocks back. */
const fromDocument: FromDocument = {
  toBlocks: (nodes, where) => toBlocks(nodes, where),
  toPhrasing: (nodes, where) => toPhrasing(nodes, where),
  plainText: (nodes) => nodes.map((node) => plainText(node as RootContent)).join(''),
  refUrl: (data, where) => refUrl(data, where),
  fence,
};

/** Blocks back into mdast. */
function toBlocks(nodes: unknown, where: Where): RootContent[] {
  return asArray(nodes, where).map((raw, i): RootContent => {
    const at = `${where}[${i}]`;
    const node = asObject(raw, at);
    if (node.object !== 'block') throw fail(`${at}.object`, 'must be block');
    const data = (node.data ?? {}) as Record<string, any>;
    const children = `${at}.nodes`;
    switch (node.type) {
      case 'paragraph':
        return { type: 'paragraph', children: toPhrasing(node.nodes, children) } satisfies Paragraph;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return { type: 'heading', depth: Number(node.type.slice(-1)) as 1 | 2 | 3, children: toPhrasing(node.nodes, children) } satisfies Heading;
      case 'list-unordered':
      case 'list-ordered':
      case 'list-tasks': {
        const items = asArray(node.nodes, children).map((rawItem, j): ListItem => {
          const itemAt = `${children}[${j}]`;
          const item = asObject(rawItem, itemAt);
          if (item.type !== 'list-item') throw fail(`${itemAt}.type`, 'must be list-item');
          const checked = node.type === 'list-tasks' ? Boolean(item.data?.checked) : null;
          return { type: 'listItem', spread: item.data?.spread === true, checked, children: toBlocks(item.nodes, `${itemAt}.nodes`) as ListItem['children'] };
        });
        const list: List = { type: 'list', ordered: node.type === 'list-ordered', spread: data.spread === true, children: items };
        if (node.type === 'list-ordered') list.start = typeof data.start === 'number' ? data.start : 1;
        return list;
      }
      case 'blockquote':
        return { type: 'blockquote', children: toBlocks(node.nodes, children) as Blockquote['children'] } satisfies Blockquote;
      case 'code': {
        if (data.raw === true) return { type: 'html', value: codeLines(node, at).join('\n') };
        // A `{% code %}` tag around the fence, for its options, or around blocks.
        const tagged = ['title', 'overflow', 'lineNumbers', 'attributes'].some((field) => data[field] !== undefined);
        // No nodes at all is an empty fence, as before blocks, unless a field makes it a tag.
        const fenced = asArray(node.nodes, children).every((line) => (line as { type?: unknown } | null)?.type === 'code-line');
        return tagged || !fenced ? documentToBlock(node, at, fromDocument) : fence(node, at);
      }
      case 'hint':
      case 'tabs':
      case 'expandable':
      case 'embed':
      case 'content-ref':
      case 'file':
        return documentToBlock(node, at, fromDocument);
      case 'divider':
        return { type: 'thematicBreak' };
      case 'images':
      case 'image': {
        const images = node.type === 'image' ? [node] : asArray(node.nodes, children).map((image, j) => asObject(image, `${children}[${j}]`));
        return {
          type: 'paragraph',
          children: images.map((image, j) => ({
            type: 'image',
            url: refUrl(image.data, node.type === 'image' ? at : `${children}[${j}]`),
            alt: typeof image.data?.alt === 'string' ? image.data.alt : '',
          })),
        } satisfies Paragraph;
      }
      case 'table': {
        const rows = asArray(node.nodes, children).map((rawRow, j): TableRow => {
          const rowAt = `${children}[${j}]`;
          const row = asObject(rawRow, rowAt);
          if (row.type !== 'table-row') throw fail(`${rowAt}.type`, 'must be table-row');
          return {
            type: 'tableRow',
            children: asArray(row.nodes, `${rowAt}.nodes`).map((rawCell, k) => {
              const cellAt = `${rowAt}.nodes[${k}]`;
              const cell = asObject(rawCell, cellAt);
              if (cell.type !== 'table-cell') throw fail(`${cellAt}.type`, 'must be table-cell');
              return { type: 'tableCell', children: toPhrasing(cell.nodes, `${cellAt}.nodes`) } satisfies TableCell;
            }),
          };
        });
        const align = Array.isArray(data.align) ? data.align.map((value: unknown) => (value === 'left' || value === 'right' || value === 'center' ? value : null)) : [];
        return { type: 'table', align, children: rows } satisfies Table;
      }
      default:
        throw fail(`${at}.type`, `block type ${JSON.stringify(node.type)} is not supported`);
    }
  });
}

/**
 * The deepest `nodes` may nest in a document given as JSON: two levels for each level of Markdown (a list
 * and its item), and a few for a paragraph, a link and its text. Checked before the recursive conversion,
 * which a deeper document would take beyond the stack; the Markdown it makes is checked as any other.
 */
export const MAX_DOCUMENT_DEPTH = 2 * MAX_MARKDOWN_DEPTH + 8;

/** Refuses (400) a document whose `nodes` nest deeper than MAX_DOCUMENT_DEPTH, without recursion. */
function assertDocumentDepth(document: Record<string, unknown>): void {
  const pending: [unknown, number][] = [[document, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    // An expandable's fragments hold blocks as `nodes` do.
    const { nodes, fragments } = node as { nodes?: unknown; fragments?: unknown };
    const held = [...(Array.isArray(nodes) ? nodes : []), ...(Array.isArray(fragments) ? fragments : [])];
    if (held.length === 0) continue;
    if (depth >= MAX_DOCUMENT_DEPTH) throw fail('', `nodes nest more than ${MAX_DOCUMENT_DEPTH} levels deep, the most a document may`);
    for (const child of held) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
}

/** Converts a JSONDocument into Markdown (canonical spelling); a malformed document is a 400 naming the node. */
export function documentToMarkdown(document: unknown): string {
  const doc = asObject(document, '');
  if (doc.object !== 'document') throw fail('.object', 'must be document');
  assertDocumentDepth(doc);
  const root: Root = { type: 'root', children: toBlocks(doc.nodes, '.nodes') };
  return stringifyMarkdown(root);
}
