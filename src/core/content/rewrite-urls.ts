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

/**
 * The text with each URL that `rewrite` answers a new value for replaced by it; `rewrite` is asked once per
 * URL node, with the URL as written (markdown.ts keeps URLs undecoded).
 */
export function rewriteUrls(markdown: string, rewrite: (url: string) => string | undefined): string {
  const edits: { start: number; end: number; text: string }[] = [];
  visitUrls(parseMarkdown(markdown), (node) => {
    const replacement = rewrite(node.url);
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (replacement === undefined || replacement === node.url || start === undefined || end === undefined) return;
    const source = markdown.slice(start, end);
    const from = urlStart(source, node, start);
    if (from < 0) return;
    const at = source.indexOf(node.url, from);
    if (at < 0) return;
    edits.push({ start: start + at, end: start + at + node.url.length, text: replacement });
  });
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
