import { readOperation } from '../operation.js';
import { DEFAULT_LIMIT } from '../pagination.js';
import { Id } from '../schemas.js';
import { spaceContent } from '../content/target.js';
import { withSearchIndex } from './build.js';
import { offsetOf, pageAt, resultsDigest } from './cursor.js';
import { presentHit } from './present.js';
import { SearchPageList, SearchQuery } from './schemas.js';
import { queryWords } from './words.js';

/**
 * Searches the published content of a space: the pages of its current revision (not its change
 * requests), ranked by relevance, each with the sections where the words are. Pages that contain most of
 * the query's words match (words.ts); `page` continues the same ranked list (cursor.ts).
 */
export const searchSpaceContent = readOperation({
  name: 'searchSpaceContent',
  summary: 'Search the content of a space',
  params: { spaceId: Id },
  query: SearchQuery,
  response: SearchPageList,
  async run(ctx, input) {
    const { access, revision } = await spaceContent(ctx, input.spaceId);
    const spaceId = access.space.id;
    const words = queryWords(input.query);
    const digest = await resultsDigest(words, [[spaceId, revision.id]]);
    const offset = offsetOf(input, digest);
    const limit = input.limit ?? DEFAULT_LIMIT;
    // A query without words (only punctuation) matches nothing: no need for the index.
    const { count, hits } = words.length === 0 ? { count: 0, hits: [] } : await withSearchIndex(ctx, { revision, organizationId: access.space.organizationId }, (index) => index.search(words, offset, limit));
    return pageAt(count, offset, limit, digest, hits.map((hit) => presentHit(ctx, spaceId, hit)));
  },
});
