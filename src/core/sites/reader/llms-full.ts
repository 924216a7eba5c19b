import * as v from 'valibot';
import type { Context } from '../../context.js';
import { computedSeed } from '../../content/computed.js';
import { readBodiesJob, type StoredBody } from '../../content/read-bodies-job.js';
import { readMarkdown } from '../../content/revision.js';
import { ApiError, notFound } from '../../errors.js';
import { readOperation } from '../../operation.js';
import { pacer } from '../../pause.js';
import { shareQueryOf } from './ai-paths.js';
import { fingerprintOf } from './fingerprint.js';
import { addressKey, navigationOf } from './navigation.js';
import { pageMarkdown } from './page-markdown.js';
import { siteIndexOf, type IndexedPage, type IndexedSiteSpace, type SiteIndex } from './site-index.js';
import { siteScopeOf } from './site-scope.js';
import type { LlmsMore, ReaderRequest } from './view.js';

/**
 * llms-full.txt: every page's Markdown in tree order after the head, in parts of PAGES_PER_PART pages. The
 * first answer holds the head and the parts already made; each further part is a read operation of its own
 * (readPublishedLlmsPart), which the reader runs as the client takes the text. So the answer starts at once,
 * no transaction lasts as long as the whole file takes, and a part is made only when it is wanted. Parts are
 * kept in ctx.derived under the revisions they read (and the versions of their computed pages): a site is
 * made once per revision, and a file whose parts are all kept is answered in one piece.
 */

/** How many pages a part holds: one part's operation (admission, the index) costs about what a page does. */
export const PAGES_PER_PART = 32;

/** How long a part's work runs between two pauses: other requests wait at most about this long. */
const TURN_MS = 8;

/** A page of the index with its site space. */
interface Placed {
  readonly siteSpace: IndexedSiteSpace;
  readonly page: IndexedPage;
}

/** The index's pages in tree order. */
function placedPages(index: SiteIndex): Placed[] {
  const pages: Placed[] = [];
  for (const siteSpace of index.siteSpaces) for (const group of siteSpace.groups) for (const page of group.pages) pages.push({ siteSpace, page });
  return pages;
}

/** What an index was read from: its site spaces' URLs and revisions; a part asks for the same, or the site changed meanwhile. */
const revisionsOf = (index: SiteIndex) => fingerprintOf(index.siteSpaces.map((siteSpace) => `${addressKey(siteSpace.address)}@${siteSpace.revision.id}`));

/** The version of each computed page (which its revision does not fix); '' for a document. */
async function seedsOf(ctx: Context, pages: readonly Placed[]): Promise<string[]> {
  const seeds: string[] = [];
  for (const { siteSpace, page } of pages) seeds.push(page.entry.type === 'computed' ? await computedSeed(ctx, siteSpace.organizationId, page.entry.computed!) : '');
  return seeds;
}

/** Where a part is kept: the file it is of, which part, and the query its links carry; under what it was made from. */
const partKind = (index: SiteIndex, part: number, query: string) => `llms-full\u0000${index.url}\u0000${part}\u0000${query}`;
const partSource = (revisions: string, seeds: readonly string[]) => `${revisions}\u0000${seeds.join('\u0000')}`;

/**
 * The stored bodies of a part's document pages read in one job, through the workers port (a thread of the
 * pool where the platform has one): their parses are most of a part's work, ~10 ms for 32 short pages, which
 * markdown-work.ts would leave on the event loop one short body at a time. Undefined for a computed page,
 * whose body is made from its specification (readerBody reads it as it does for its HTML).
 */
async function readBodiesOf(ctx: Context, pages: readonly Placed[], pace: () => Promise<void> | undefined): Promise<(StoredBody | undefined)[]> {
  const stored: string[] = [];
  const at: number[] = [];
  for (const [position, { page }] of pages.entries()) {
    if (page.entry.type !== 'document') continue;
    await pace();
    stored.push(await readMarkdown(ctx.tx, page.entry));
    at.push(position);
  }
  const read = stored.length > 0 ? await ctx.workers.run(readBodiesJob, stored) : [];
  const bodies: (StoredBody | undefined)[] = pages.map(() => undefined);
  // With the text read here: the page's body is not read from the store a second time (page-body.ts).
  at.forEach((position, n) => (bodies[position] = { ...read[n], stored: stored[n] }));
  return bodies;
}

/** Makes a part: each page's Markdown after a blank line, its links carrying `query`, pausing every TURN_MS. */
async function makePart(ctx: Context, pages: readonly Placed[], query: string): Promise<string> {
  const pace = pacer(TURN_MS);
  const bodies = await readBodiesOf(ctx, pages, pace);
  let text = '';
  for (const [position, { siteSpace, page }] of pages.entries()) {
    await pace();
    const navigation = await navigationOf(ctx, siteSpace.revision, siteSpace.address);
    text += `\n${await pageMarkdown(ctx, siteSpace.organizationId, siteSpace.revision, navigation, page.entry, query, bodies[position])}`;
  }
  return text;
}

/**
 * The beginning of llms-full.txt: its head and the parts already kept, its fingerprint (the ETag), and where
 * the rest begins; its links carry `query` (shareQueryOf), which the head holds too, so the fingerprint follows it.
 */
export async function llmsFullStart(ctx: Context, index: SiteIndex, head: string, query: string): Promise<{ text: string; fingerprint: string; more?: LlmsMore }> {
  const pages = placedPages(index);
  const revisions = await revisionsOf(index);
  const seeds = await seedsOf(ctx, pages);
  // Hashing megabytes on every request would cost more than what they are made of: the pages' revisions.
  const fingerprint = `llms-full.${await fingerprintOf([revisions, seeds, head])}`;
  let text = head;
  for (let part = 0; part * PAGES_PER_PART < pages.length; part++) {
    const kept = ctx.derived.peek<string>(partKind(index, part, query),partSource(revisions, seeds.slice(part * PAGES_PER_PART, (part + 1) * PAGES_PER_PART)));
    if (kept === undefined) return { text, fingerprint, more: { part, revisions } };
    text += kept;
  }
  return { text, fingerprint };
}

/** The input of a part: the request of llms-full.txt, which part, and the revisions its beginning read. */
const PartInput = {
  request: v.custom<ReaderRequest>((value) => typeof value === 'object' && value !== null),
  part: v.pipe(v.number(), v.integer(), v.minValue(0)),
  revisions: v.string(),
};

/**
 * Reads a part of llms-full.txt (llmsFullStart said which comes first), for the visitor the request names;
 * `next` is the part after it, absent after the last. A 409 when the site changed since the file began.
 */
export const readPublishedLlmsPart = readOperation({
  name: 'readPublishedLlmsPart',
  summary: 'Read a part of the llms-full.txt of a published site',
  body: PartInput,
  response: v.custom<{ text: string; next?: number }>(() => true),
  async run(ctx, { request, part, revisions }): Promise<{ text: string; next?: number }> {
    const scope = await siteScopeOf(ctx, request);
    if (scope === undefined || 'kind' in scope) throw notFound('There is no published site here');
    const index = await siteIndexOf(ctx, scope.site, scope.visible, scope.section);
    if ((await revisionsOf(index)) !== revisions) throw new ApiError(409, 'The site changed while its llms-full.txt was read: read it again');
    const all = placedPages(index);
    const pages = all.slice(part * PAGES_PER_PART, (part + 1) * PAGES_PER_PART);
    const query = shareQueryOf(scope.admitted.share);
    const text = await ctx.derived.get(partKind(index, part, query), partSource(revisions, await seedsOf(ctx, pages)), () => makePart(ctx, pages, query), () => Math.max(1, pages.length));
    return (part + 1) * PAGES_PER_PART < all.length ? { text, next: part + 1 } : { text };
  },
});
