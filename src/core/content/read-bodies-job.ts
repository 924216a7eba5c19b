import { defineJob } from '../job.js';
import { outlineOf, type Outline } from './outline.js';
import { urlSpans, type UrlSpan } from './rewrite-urls.js';

/**
 * The Markdown work of many short bodies in one job, for a reader of a whole site (llms-full.txt): each
 * body's outline (markdown-it) and, when it has URLs, where they are written (urlSpans, mdast, the slower
 * parse). One body is cheap, so markdown-work.ts parses a short one on the calling thread; 2,000 of them
 * are ~0.6 s of parsing plus the garbage it leaves, which a job per batch moves off the event loop for a
 * round trip per batch. Both run on the bounded text (boundedMarkdown, which the outline hands back when it differs), which is what a reader renders.
 */

/** What a reader needs of a body's outline (its sections, the body's text again, are left behind). */
export type ReaderOutline = Pick<Outline, 'urls' | 'anchors' | 'firstParagraph' | 'bounded'>;

/** A stored body as read for readers: its outline, and where its URLs are written (none when it has no URL). */
export interface ReadBody {
  readonly outline: ReaderOutline;
  readonly spans: readonly UrlSpan[];
}

/** A stored body as its caller read it from the store, with what the job read of it: nothing needs reading again. */
export interface StoredBody extends ReadBody {
  readonly stored: string;
}

/** Reads one stored body (see the module comment). */
export function readBody(stored: string): ReadBody {
  const { urls, anchors, firstParagraph, bounded } = outlineOf(stored);
  const markdown = bounded ?? stored;
  return { outline: { urls, anchors, ...(firstParagraph !== undefined && { firstParagraph }), ...(bounded !== undefined && { bounded }) }, spans: urls.length > 0 ? urlSpans(markdown) : [] };
}

/** readBody of each stored body, in order: strings in, strings and numbers out. */
export const readBodiesJob = defineJob<readonly string[], ReadBody[]>({
  name: 'markdown-read-bodies',
  what: 'reading page bodies',
  run: (bodies) => bodies.map(readBody),
});
