import type { RootContent } from 'mdast';
import { defineJob } from '../job.js';
import type { Workers } from '../workers.js';
import { parseMarkdown, visitUrls, type UrlNode } from './markdown.js';
import { markdownWork } from './markdown-work.js';

/**
 * Rewrites the URLs of a Markdown text's links, images and link definitions, leaving every other character
 * as written: GitBook's `{% … %}` blocks, spacing and escapes stay, as a page's `.md` version must keep them.
 * The URLs are found by the one Markdown parser (markdown.ts) and replaced at their place in the source, so
 * a `/pages/…` in a code block or in text is never touched. A URL written in an unusual spelling (escaped,
 * in `<…>`) that cannot be found as written in its node's source is left as it is.
 */

/** Where a node's URL is in its source: after its text (`](`) for a link or an image, after `]:` for a definition. */
function urlStart(source: string, node: UrlNode, nodeStart: number): number {
  if (node.type === 'definition') {
    const colon = source.indexOf(']:');
    return colon < 0 ? -1 : colon + 2;
  }
  const children = 'children' in node ? (node.children as RootContent[]) : [];
  const last = children[children.length - 1]?.position?.end.offset;
  // An image's alt text has no child nodes: its `](` is the first one after its `![`.
  if (last !== undefined) return last - nodeStart;
  const bracket = source.indexOf('](');
  return bracket < 0 ? -1 : bracket + 2;
}

/** Where a URL is written in a text: from `start` to `end` (offsets), `url` as written. */
export interface UrlSpan {
  readonly start: number;
  readonly end: number;
  readonly url: string;
}

/**
 * Where each URL of a link, an image or a link definition is written in a Markdown text, in document order:
 * the one slow step of rewriting them (a parse), which spliceUrls then uses as often as it likes.
 */
export function urlSpans(markdown: string): UrlSpan[] {
  const spans: UrlSpan[] = [];
  visitUrls(parseMarkdown(markdown), (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    const source = markdown.slice(start, end);
    const from = urlStart(source, node, start);
    if (from < 0) return;
    const at = source.indexOf(node.url, from);
    if (at < 0) return;
    spans.push({ start: start + at, end: start + at + node.url.length, url: node.url });
  });
  return spans;
}

/**
 * The text with each URL of `spans` (urlSpans of this same text) that `rewrite` answers a new value for
 * replaced by it; `rewrite` is asked once per span, with the URL as written. No parse: string work only.
 */
export function spliceUrls(markdown: string, spans: readonly UrlSpan[], rewrite: (url: string) => string | undefined): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const span of spans) {
    const replacement = rewrite(span.url);
    if (replacement !== undefined && replacement !== span.url) edits.push({ start: span.start, end: span.end, text: replacement });
  }
  edits.sort((a, b) => a.start - b.start);
  let result = '';
  let done = 0;
  for (const edit of edits) {
    if (edit.start < done) continue;
    result += markdown.slice(done, edit.start) + edit.text;
    done = edit.end;
  }
  return result + markdown.slice(done);
}

/**
 * The text with each URL that `rewrite` answers a new value for replaced by it; `rewrite` is asked once per
 * URL node, with the URL as written (markdown.ts keeps URLs undecoded).
 */
export const rewriteUrls = (markdown: string, rewrite: (url: string) => string | undefined): string => spliceUrls(markdown, urlSpans(markdown), rewrite);

/** The input of rewriteUrlsJob: the text, and the new URL of each URL (as written) to replace. */
export interface UrlRewrite {
  readonly markdown: string;
  readonly urls: Readonly<Record<string, string>>;
}

/** rewriteUrls as a job, for a body too long to parse on the event loop (markdown-work.ts). */
export const rewriteUrlsJob = defineJob<UrlRewrite, string>({
  name: 'markdown-rewrite-urls',
  what: 'rewriting the links of a page body',
  run: ({ markdown, urls }) => rewriteUrls(markdown, (url) => (Object.hasOwn(urls, url) ? urls[url] : undefined)),
});

/** The text with the URLs of `urls` replaced, read off the event loop when it is long. */
export const rewriteUrlsOff = (workers: Workers, rewrite: UrlRewrite): Promise<string> => markdownWork(workers, rewriteUrlsJob, rewrite, rewrite.markdown.length);
