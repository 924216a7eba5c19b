import { defineJob } from '../../job.js';
import { documentToMarkdown } from '../document.js';
import { parseMarkdown, splitPageRoot, stringifyMarkdown, visitUrls, type PageMeta } from '../markdown.js';
import { assertMarkdownLimits } from '../markdown-limits.js';

/**
 * Reading the body of an insert_page or update_page: Markdown or the JSON document, held to the Markdown
 * limits, split as Git Sync splits it, and printed in the canonical spelling. A job (markdown-work.ts runs it
 * off the event loop for a long body), so it gets and gives plain data: the links it cannot resolve itself
 * (they need the revision) go out as the list of URLs the body holds, and come back in a second reading as
 * `rewrite`, the URLs to put in their place.
 */

/** A change's body as the client sent it, and the URLs to rewrite (absent on the first reading). */
export interface PageTextInput {
  readonly document: { readonly markdown: string } | { readonly document: unknown } | Record<string, never>;
  readonly rewrite?: ReadonlyMap<string, string>;
}

/** A body, read: its frontmatter fields, the title of its leading heading, the Markdown to store and the URLs it holds. */
export interface PageText {
  readonly meta: PageMeta;
  readonly heading?: string;
  readonly markdown: string;
  /** Every URL of a link, an image or a link definition of the body, each once (after `rewrite`). */
  readonly urls: readonly string[];
}

/** Reads a change's body (see the module comment); a body beyond the limits, or a malformed document, is a 400. */
export function readPageText({ document, rewrite }: PageTextInput): PageText {
  const markdown = 'markdown' in document ? document.markdown : 'document' in document ? documentToMarkdown(document.document) : '';
  const where = 'markdown' in document ? 'document.markdown' : 'document.document (as Markdown)';
  assertMarkdownLimits(markdown, where);
  const { meta, heading, body } = splitPageRoot(parseMarkdown(markdown));
  const urls = new Set<string>();
  visitUrls(body, (node) => {
    const to = rewrite?.get(node.url);
    if (to !== undefined) node.url = to;
    urls.add(node.url);
  });
  const stored = stringifyMarkdown(body);
  // What is stored must read and write back: its canonical spelling may meet a limit its input did not (the
  // scan counts the lines of a lone tag's HTML block as Markdown, and printing may start one).
  assertMarkdownLimits(stored, `${where} (as stored)`);
  return { meta, ...(heading !== undefined && { heading }), markdown: stored, urls: [...urls] };
}

/** readPageText as a job. */
export const pageTextJob = defineJob<PageTextInput, PageText>({ name: 'page-text', what: 'reading a page body', run: readPageText });
