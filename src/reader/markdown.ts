import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { parseBlocks, readDefinitionsFirst, type BodyItem, type PageView } from '../core/reader.js';
import { renderBlock, type CodeOptions } from './blocks.js';
import { renderCode } from './code-block.js';
import { escapeHtml } from './html.js';
import type { LayoutWords } from './layout-words.js';

/**
 * A page body as HTML: markdown-it set up exactly as the core's outline reads bodies (core/content/outline.ts:
 * raw HTML recognised, URLs as written, bare URLs linked), so that the headings meet the anchors and the links
 * meet the targets the core resolved for them (PageView.links). GitBook's blocks are read by the core's one
 * reader of them (core/content/blocks/) and rendered around their Markdown by blocks.ts. Raw HTML is shown
 * as text. A link whose target the core did not resolve (`javascript:`, `data:`, a page that is not there)
 * is its text alone; an image likewise is its alt text. Code blocks are highlighted on the server
 * (code-block.ts); `- [ ]` and `- [x]` are task boxes.
 */

const parser = new MarkdownIt('default', { html: true, linkify: true });
parser.normalizeLink = (url) => url;
parser.normalizeLinkText = (url) => url;
parser.validateLink = () => true;
parser.linkify.set({ fuzzyLink: true, fuzzyEmail: true });

/** A heading of the page, for its outline. */
export interface Heading {
  readonly level: number;
  readonly anchor: string;
  readonly text: string;
}

/** What rendering needs to know about the page, and collects from it. */
interface Env {
  readonly links: PageView['links'];
  /** Image sizes by URL as written (PageView.imageSizes); none for a fragment. */
  readonly imageSizes?: PageView['imageSizes'];
  readonly anchors: readonly string[];
  readonly pageTitles: PageView['pageTitles'];
  readonly headings: Heading[];
  heading: number;
  /** The labels of regions that scroll (code, tables): focusable, so that a keyboard can scroll them. */
  readonly labels: Pick<LayoutWords, 'code' | 'table'>;
  /** A fragment of a page (a description of an API page): its headings get no anchors and no outline entry. */
  readonly fragment?: boolean;
  /** The options of the `{% code %}` being rendered, for its fences. */
  code?: CodeOptions;
  /** The last id given to an element of the body (tabs). */
  ids: number;
}

/** The attributes of a region that scrolls: focusable, a region named by its label. */
const scrollRegion = (label: string) => ` tabindex="0" role="region" aria-label="${escapeHtml(label)}"`;

const TASK = /^\[([ xX])\] /;

/** Marks the task list items: a list item whose text starts with `[ ] ` or `[x] `. */
parser.core.ruler.push('task_lists', (state) => {
  const tokens = state.tokens;
  for (let at = 2; at < tokens.length; at++) {
    if (tokens[at].type !== 'inline' || tokens[at - 1].type !== 'paragraph_open' || tokens[at - 2].type !== 'list_item_open') continue;
    const first = tokens[at].children?.[0];
    const match = first?.type === 'text' ? TASK.exec(first.content) : null;
    if (!first || !match) continue;
    first.content = first.content.slice(match[0].length);
    const box = new state.Token('task_box', '', 0);
    box.meta = { checked: match[1] !== ' ' };
    tokens[at].children!.unshift(box);
    tokens[at - 2].attrJoin('class', 'task');
  }
});

const rules = parser.renderer.rules;
rules.task_box = (tokens, at) => `<input type="checkbox" disabled${tokens[at].meta.checked ? ' checked' : ''}> `;
rules.html_block = (tokens, at) => `<p>${escapeHtml(tokens[at].content)}</p>`;
rules.html_inline = (tokens, at) => escapeHtml(tokens[at].content);

/** Where a URL written in the body leads, or null: shown as text. */
const target = (env: Env, url: string): string | null => (Object.prototype.hasOwnProperty.call(env.links, url) ? env.links[url] : null);

rules.link_open = (tokens, at, options, env: Env, self) => {
  const token = tokens[at];
  const written = token.attrGet('href') ?? '';
  const href = target(env, written);
  // The matching link_close follows before any other link_open: links do not nest. Found by walking forward,
  // not by copying the rest of the line: a paragraph of 10,000 bare URLs took 15 s that way.
  let end = at + 1;
  while (end < tokens.length && tokens[end].type !== 'link_close') end++;
  const close = tokens[end];
  if (href === null) {
    if (close) close.meta = { dropped: true };
    return '';
  }
  token.attrSet('href', href);
  // Written as an absolute URL: it leaves the site.
  if (/^https?:/i.test(written)) token.attrSet('rel', 'noopener noreferrer');
  return self.renderToken(tokens, at, options);
};
rules.link_close = (tokens, at, options, _env, self) => (tokens[at].meta?.dropped ? '' : self.renderToken(tokens, at, options));

rules.image = (tokens, at, options, env: Env, self) => {
  const token = tokens[at];
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  const src = target(env, token.attrGet('src') ?? '');
  if (src === null) return escapeHtml(alt);
  const title = token.attrGet('title');
  // Sized as stored, so the page does not shift as it loads (CSS keeps it within the column, in proportion).
  const written = token.attrGet('src') ?? '';
  const size = env.imageSizes && Object.prototype.hasOwnProperty.call(env.imageSizes, written) ? env.imageSizes[written] : undefined;
  const sized = size ? ` width="${size.width}" height="${size.height}"` : '';
  return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${title ? ` title="${escapeHtml(title)}"` : ''}${sized} loading="lazy">`;
};

rules.heading_open = (tokens, at, _options, env: Env) => {
  const token = tokens[at];
  if (env.fragment) return `<${token.tag}>`;
  const anchor = env.anchors[env.heading++] ?? '';
  const text = (tokens[at + 1].children ?? []).map((child: Token) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
  env.headings.push({ level: Number(token.tag.slice(1)), anchor, text });
  const id = escapeHtml(anchor);
  return `<${token.tag} id="${id}"><a class="anchor" href="#${id}" aria-label="Link to this section">#</a>`;
};

rules.fence = (tokens, at, _options, env: Env) => renderCode(tokens[at].content, tokens[at].info, env.code, (language) => scrollRegion(env.labels.code(language)));

rules.table_open = (_tokens, _at, _options, env: Env) => `<div class="table"${scrollRegion(env.labels.table)}><table>\n`;
rules.table_close = () => '</table></div>\n';

/** Renders a body's items: Markdown with markdown-it, blocks around what they hold. */
function renderItems(items: readonly BodyItem[], env: Env): string {
  let out = '';
  for (const item of items) {
    if (item.kind === 'markdown') {
      out += parser.render(item.text, env);
      continue;
    }
    out += renderBlock(item, {
      href: (url) => target(env, url),
      pageTitle: (url) => (Object.prototype.hasOwnProperty.call(env.pageTitles, url) ? env.pageTitles[url] : undefined),
      nextId: () => ++env.ids,
      inner: (children, code) => {
        const outer = env.code;
        env.code = code ?? outer;
        try {
          return renderItems(children, env);
        } finally {
          env.code = outer;
        }
      },
    });
  }
  return out;
}

/** Renders a page's body; also returns its headings for the outline. */
export function renderBody(page: Pick<PageView, 'markdown' | 'links' | 'anchors' | 'pageTitles'> & Partial<Pick<PageView, 'imageSizes'>>, labels: Env['labels']): { html: string; headings: Heading[] } {
  const env: Env = { links: page.links, imageSizes: page.imageSizes, anchors: page.anchors, pageTitles: page.pageTitles, headings: [], heading: 0, labels, ids: 0 };
  const items = parseBlocks(page.markdown);
  // A definition holds for the whole body, in a block or out of it.
  readDefinitionsFirst(parser, items, env);
  return { html: renderItems(items, env), headings: env.headings };
}

/** Renders a fragment of Markdown within a page (a description of an API page), its links as the core resolved them. */
export function renderFragment(markdown: string, links: PageView['links'], labels: Env['labels']): string {
  const env: Env = { links, anchors: [], pageTitles: {}, headings: [], heading: 0, labels, fragment: true, ids: 0 };
  return parser.render(markdown, env);
}
