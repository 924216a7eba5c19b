import * as v from 'valibot';
import { listQuery, listSchema } from '../pagination.js';
import { Url } from '../schemas.js';

/** The `query` of a search: required, at most 512 characters, not only spaces. */
export const SearchQueryText = v.pipe(
  v.string('must be a string'),
  v.minLength(1, 'must not be empty'),
  v.maxLength(512, 'must be at most 512 characters'),
  // A pattern rather than a check, so that the OpenAPI document says it too (`pattern: \S`).
  v.regex(/\S/, 'must not be only spaces'),
);

/** The query parameters of both searches. */
export const SearchQuery = { query: SearchQueryText, ...listQuery };

/** `urls` of a hit or a section: where the application shows it. */
const AppUrls = v.object({ app: Url });

/** A section of a page that matched: a heading and its text (or the text before the first heading). */
export const SearchSectionSchema = v.object({
  id: v.string(),
  title: v.string(),
  path: v.string(),
  body: v.string(),
  urls: AppUrls,
});

/** A search hit: a page that matched, with the sections where the words are. */
export const SearchPageSchema = v.object({
  id: v.string(),
  title: v.string(),
  path: v.string(),
  sections: v.optional(v.array(SearchSectionSchema)),
  urls: AppUrls,
});

/** A space of an organization search, with its best hits. */
export const SearchSpaceSchema = v.object({
  id: v.string(),
  title: v.string(),
  pages: v.array(SearchPageSchema),
});

/** The result of a space search. */
export const SearchPageList = listSchema(SearchPageSchema);

/** The result of an organization search. */
export const SearchSpaceList = listSchema(SearchSpaceSchema);
