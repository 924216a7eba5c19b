import type { Root } from 'mdast';
import { ApiError, badRequest } from '../../errors.js';
import { DEFAULT_PAGE_TITLE } from '../author/apply.js';
import { MAX_TITLE_LENGTH } from '../draft.js';
import { parseMarkdown, splitPageRoot, stringifyMarkdown, visitUrls } from '../markdown.js';
import { assertMarkdownLimits, assertTreeDepth } from '../markdown-limits.js';
import type { PlannedMeta } from './plan.js';
import { MAX_PAGE_MARKDOWN_BYTES } from './schemas.js';

/** An imported document made ready for a page: its title, frontmatter fields and canonical Markdown body. */
export interface ImportedBody {
  readonly title: string;
  readonly meta: PlannedMeta;
  readonly markdown: string;
}

/** What the title of an imported page falls back to, in order, when its document names none. */
export type TitleFallbacks = readonly (string | undefined)[];

/**
 * A title fit for a page: whitespace runs made one space (with `spaces`, only those that break the line), cut to
 * the longest title a page may have.
 */
function cleanTitle(title: string | undefined, spaces: boolean): string | undefined {
  const clean = title?.replace(spaces ? /\s*[\n\r\f\v\u2028\u2029]\s*/g : /\s+/g, ' ').trim();
  if (!clean) return undefined;
  return [...clean].slice(0, MAX_TITLE_LENGTH).join('').trim();
}

/**
 * The first of some candidate titles that has text, fit for a page; `Untitled` when none has. With `spaces`,
 * runs of spaces and tabs stay (Git Sync: a page's title may hold them, and one exported must read back as it was).
 */
export function pageTitle(candidates: TitleFallbacks, spaces = false): string {
  return candidates.map((candidate) => cleanTitle(candidate, spaces)).find((candidate) => candidate !== undefined) ?? DEFAULT_PAGE_TITLE;
}

/**
 * The title a file name gives (`getting-started.md` → `Getting started`): the name without its
 * extension, `-` and `_` read as spaces, the first letter upper-case.
 */
export function titleOfName(name: string): string | undefined {
  const words = name
    .replace(/\.[A-Za-z0-9]{1,10}$/, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : undefined;
}

/**
 * Reads an imported document as a page, the way authoring does (author/apply.ts): YAML frontmatter sets the
 * page's fields, a leading first-level heading is its title, and both leave the body; then every URL of the
 * body goes through `rewrite` (undefined: kept) and the body is printed in the canonical spelling. The
 * title is the frontmatter's, else the heading's, else the first of `fallbacks` that has one, else
 * `Untitled`, cut to 100 characters (runs of spaces kept with `spaces`, see pageTitle). `where` names the
 * document in errors (bad frontmatter, a body over 1 MiB, or nesting beyond the depth limit of
 * markdown-limits.ts, which holds for imports as for authoring).
 */
export function importedBody(root: Root, where: string, fallbacks: TitleFallbacks, rewrite: (url: string) => string | undefined, spaces = false): ImportedBody {
  let split: ReturnType<typeof splitPageRoot>;
  try {
    split = splitPageRoot(root);
  } catch (error) {
    if (error instanceof ApiError) throw badRequest(`${where}: ${error.message}`);
    throw error;
  }
  const { meta, heading, body } = split;
  visitUrls(body, (node) => {
    const url = rewrite(node.url);
    if (url !== undefined) node.url = url;
  });
  // A tree made from HTML was not scanned as Markdown: it is counted before printing, and what it prints is scanned.
  assertTreeDepth(body, where);
  const markdown = stringifyMarkdown(body);
  assertMarkdownLimits(markdown, where);
  const size = new TextEncoder().encode(markdown).length;
  if (size > MAX_PAGE_MARKDOWN_BYTES) throw badRequest(`${where}: its page would hold ${size} bytes of Markdown, more than ${MAX_PAGE_MARKDOWN_BYTES}`);
  const { title, ...fields } = meta;
  return { title: pageTitle([title, heading, ...fallbacks], spaces), meta: fields, markdown };
}

/** importedBody of a Markdown document, refused (400) before parsing when it nests beyond the depth limit. */
export function importedMarkdown(text: string, where: string, fallbacks: TitleFallbacks, rewrite: (url: string) => string | undefined, spaces = false): ImportedBody {
  assertMarkdownLimits(text, where);
  return importedBody(parseMarkdown(text), where, fallbacks, rewrite, spaces);
}

/** Whether a URL names its scheme (`https:`, `mailto:`): such URLs never point into the imported content. */
export const hasScheme = (url: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(url);

/**
 * Makes relative URLs absolute against the address a document was fetched from (or its `<base>`), so that
 * its links and images still point where they did; in-page anchors (`#part`) and URLs with a scheme stay.
 */
export function absoluteAgainst(base: string): (url: string) => string | undefined {
  return (url) => {
    if (url === '' || url.startsWith('#') || hasScheme(url)) return undefined;
    try {
      return new URL(url, base).href;
    } catch {
      return undefined;
    }
  };
}
