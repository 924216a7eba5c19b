import { loadRevision } from '../content/revision.js';
import { readOperation } from '../operation.js';
import { DEFAULT_LIMIT } from '../pagination.js';
import { organizationAccess } from '../permissions.js';
import { Id } from '../schemas.js';
import { spacesOfMember } from '../spaces/levels.js';
import { withSearchIndex } from './build.js';
import { offsetOf, pageAt, resultsDigest } from './cursor.js';
import { presentHit } from './present.js';
import { compareText } from './search-index.js';
import { SearchQuery, SearchSpaceList } from './schemas.js';
import { queryWords } from './words.js';

/** How many hits one space of an organization search shows, best first (the space search lists them all). */
export const MAX_PAGES_PER_SPACE = 10;

/**
 * Searches every space of an organization the caller can read (live ones: not deleted), as the space
 * search does each one, and lists the spaces that have hits, each with its best hits. Spaces are ranked
 * by their best hit (more of the words, then more of them in its title or a heading, then a higher
 * score), then by title; `page` pages over spaces.
 * Any member may search; a space the caller cannot read is never searched, so it never shows.
 */
export const searchOrganizationContent = readOperation({
  name: 'searchOrganizationContent',
  summary: 'Search the content of the spaces of an organization',
  params: { organizationId: Id },
  query: SearchQuery,
  response: SearchSpaceList,
  async run(ctx, input) {
    const { member } = await organizationAccess(ctx, input.organizationId);
    const readable = (await spacesOfMember(ctx, member)).map(({ space }) => space);
    const words = queryWords(input.query);
    const digest = await resultsDigest(
      words,
      readable.map((space) => [space.id, space.revision] as const),
    );
    const offset = offsetOf(input, digest);
    const found = [];
    for (const space of words.length === 0 ? [] : readable) {
      const revision = await loadRevision(ctx.tx, space.revision);
      const { hits } = await withSearchIndex(ctx, { revision, organizationId: space.organizationId }, (index) => index.search(words, 0, MAX_PAGES_PER_SPACE));
      if (hits.length > 0) found.push({ space, hits, best: hits[0] });
    }
    found.sort(
      (a, b) =>
        b.best.matched - a.best.matched ||
        b.best.prominent - a.best.prominent ||
        b.best.score - a.best.score ||
        compareText(a.space.title, b.space.title) ||
        compareText(a.space.id, b.space.id),
    );
    const limit = input.limit ?? DEFAULT_LIMIT;
    const shown = found.slice(offset, offset + limit);
    return pageAt(
      found.length,
      offset,
      limit,
      digest,
      shown.map(({ space, hits }) => ({ id: space.id, title: space.title, pages: hits.map((hit) => presentHit(ctx, space.id, hit)) })),
    );
  },
});
