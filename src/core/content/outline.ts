import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import type { Block, BodyItem } from './blocks/model.js';
import { readDefinitionsFirst } from './blocks/definitions.js';
import { parseBlocks } from './blocks/parse.js';
import { headingAnchor, newSlugger } from './markdown.js';
import { boundedMarkdown } from './markdown-limits.js';

/**
 * What the indexes of a revision read from a page body (links report, search): the URLs it points at, the
 * anchors of its headings, and its text cut into sections at top-level headings. Reading a whole revision
 * means reading every body, and the mdast parser of markdown.ts takes ~2 ms for 1 KB of Markdown (20 s for
 * 10,000 pages), so this reads with markdown-it, a CommonMark parser ~20x faster whose token stream holds
 * all these need. It is set to say what markdown.ts's tree says (URLs as written, GFM tables, bare
 * `https://` links); test/property/outline.test.ts checks the two agree on generated documents.
 */

/** One section of a page's body. */
export interface BodySection {
  /** The heading's anchor; null for the text before the first heading. */
  readonly anchor: string | null;
  /** The heading's text; '' for the text before the first heading. */
  readonly heading: string;
  /** The section's plain text, blocks separated by new lines (the heading not included). */
  readonly text: string;
  /** Its text without its code blocks: what a search hit shows of it. */
  readonly prose: string;
}

/** What a page body says to the indexes. */
export interface Outline {
  /** Every URL of a link, an image or a link definition, each once, as written. */
  readonly urls: readonly string[];
  /** The anchor of every heading (nested ones too), numbered for repeats as GitHub does, in document order. */
  readonly anchors: readonly string[];
  /** The text before the first top-level heading (when there is some), then one section per top-level heading. */
  readonly sections: readonly BodySection[];
  /** The plain text of its first paragraph that has some (wherever it stands), on one line: a page's summary when it has no description. */
  readonly firstParagraph?: string;
  /**
   * The body as it was read (boundedMarkdown), only when that differs from the body given (one stored before
   * the limits): what a reader renders, handed back so that no caller scans a long body on its own thread.
   */
  readonly bounded?: string;
}

const parser = new MarkdownIt('default', { html: true, linkify: true });
// URLs as written (markdown.ts keeps them so): no percent-encoding, and no link refused for its scheme.
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (url) => url;
parser.validateLink = () => true;
// GFM autolinks bare URLs with a scheme, `www.` hosts and e-mail addresses; linkify-it's fuzzy matching
// finds those and also bare domains (`example.com`, `README.md`), which inlineUrls leaves out (GFM does).
parser.linkify.set({ fuzzyLink: true, fuzzyEmail: true });

/** Whether a bare URL markdown-it linkified is one GFM links too: a scheme, `www.`, or an e-mail address. */
const gfmLinkifies = (text: string) => /^(?:[a-z][a-z0-9+.-]*:|www\.)/i.test(text) || /^[^\s@]+@[^\s@]+$/.test(text);

/** Raw HTML: its text is searchable, its tags are not. */
const untagged = (html: string) => html.replace(/<[^>]*>/g, ' ');

/** The plain text of an inline token's children, as mdast-util-to-string reads a heading (alt texts included). */
function inlineText(children: readonly Token[] | null, forSearch: boolean): string {
  let text = '';
  for (const child of children ?? []) {
    switch (child.type) {
      case 'text':
      case 'code_inline':
        text += child.content;
        break;
      case 'image':
        text += inlineText(child.children, forSearch);
        break;
      case 'softbreak':
      case 'hardbreak':
        text += '\n';
        break;
      case 'html_inline':
        text += forSearch ? untagged(child.content) : child.content;
        break;
    }
  }
  return text;
}

/** Every URL of an inline token's children. */
function inlineUrls(children: readonly Token[] | null, urls: string[]): void {
  for (let at = 0; at < (children?.length ?? 0); at++) {
    const child = children![at];
    if (child.type === 'link_open') {
      // A linkified bare URL: its text is the next token.
      if (child.markup === 'linkify' && !gfmLinkifies(children![at + 1]?.content ?? '')) continue;
      urls.push(child.attrGet('href') ?? '');
    }
    else if (child.type === 'image') {
      urls.push(child.attrGet('src') ?? '');
      inlineUrls(child.children, urls);
    }
  }
}

/** The text a block shows of itself besides what it holds: a tab's title, a summary, a code block's title. */
function ownText(block: Block): string {
  switch (block.kind) {
    case 'tab':
      return block.title;
    case 'details':
      return block.summary;
    case 'code':
      return block.title ?? '';
    default:
      return '';
  }
}

/**
 * Reads a page body's outline (see the module comment). GitBook's blocks (blocks/parse.ts) are read as the
 * mdast tree holds them: what they hold is text of the section they are in (headings inside them do not start
 * one), their tags are no text, and the URL of an embed, a content reference or a file is a URL of the page.
 */
export function outlineOf(markdown: string): Outline {
  if (markdown === '') return { urls: [], anchors: [], sections: [] };
  const env: { references?: Record<string, { href: string }> } = {};
  const urls: string[] = [];
  const anchors: string[] = [];
  const sections: BodySection[] = [];
  const slugger = newSlugger();
  let firstParagraph: string | undefined;
  let current: { anchor: string | null; heading: string; parts: string[]; prose: string[] } = { anchor: null, heading: '', parts: [], prose: [] };
  const close = () => {
    const text = current.parts.join('\n').trim();
    if (current.anchor !== null || text !== '') sections.push({ anchor: current.anchor, heading: current.heading, text, prose: current.prose.join('\n').trim() });
  };
  /** Text of the section that is no code: searched, and shown in excerpts. */
  const say = (text: string) => {
    current.parts.push(text);
    current.prose.push(text);
  };
  const read = (text: string, nested: boolean) => {
    const tokens = parser.parse(text, env);
    // Table cells of one row are joined on one line, as the search text of markdown.ts's tree joins them.
    let row: string[] | null = null;
    for (let at = 0; at < tokens.length; at++) {
      const token = tokens[at];
      switch (token.type) {
        case 'heading_open': {
          const inline = tokens[at + 1];
          inlineUrls(inline.children, urls);
          const heading = inlineText(inline.children, false);
          const anchor = headingAnchor(heading, slugger);
          anchors.push(anchor);
          if (token.level === 0 && !nested) {
            close();
            current = { anchor, heading: heading.trim(), parts: [], prose: [] };
          } else say(inlineText(inline.children, true));
          at += 2;
          break;
        }
        case 'tr_open':
          row = [];
          break;
        case 'tr_close':
          say(row!.join(' '));
          row = null;
          break;
        case 'inline': {
          inlineUrls(token.children, urls);
          const said = inlineText(token.children, true);
          if (row) row.push(said);
          else say(said);
          if (firstParagraph === undefined && tokens[at - 1]?.type === 'paragraph_open') firstParagraph = said.replace(/\s+/g, ' ').trim() || undefined;
          break;
        }
        case 'fence':
        case 'code_block':
          current.parts.push(token.content);
          break;
        case 'html_block':
          say(untagged(token.content));
          break;
      }
    }
  };
  const walk = (items: readonly BodyItem[], nested: boolean) => {
    for (const item of items) {
      if (item.kind === 'markdown') {
        read(item.text, nested);
        continue;
      }
      if ('url' in item) urls.push(item.url);
      const own = ownText(item);
      if (own !== '') say(own);
      walk(item.children, true);
    }
  };
  // Bounded as markdown.ts bounds it, so that both read a deep body the same way.
  const bounded = boundedMarkdown(markdown);
  const items = parseBlocks(bounded);
  // A definition holds for the whole body, in a block or out of it.
  readDefinitionsFirst(parser, items, env);
  walk(items, false);
  close();
  // Link definitions point somewhere too, used or not (as their mdast `definition` nodes do).
  for (const reference of Object.values(env.references ?? {})) urls.push(reference.href);
  return { urls: [...new Set(urls)], anchors, sections, ...(firstParagraph !== undefined && { firstParagraph }), ...(bounded !== markdown && { bounded }) };
}
