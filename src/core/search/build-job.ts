import { defineJob } from '../job.js';
import { packedBuffers, packedCount, unpack, type PackedStrings } from '../packed-strings.js';
import { pause } from '../pause.js';
import { imageBuffers, indexedPage, SearchIndex, type IndexedPage, type SearchIndexImage } from './search-index.js';

/**
 * The job that builds a revision's search index from its indexed pages: cutting bodies into sections and
 * words and filling the posting lists takes seconds at 10,000 pages (~3 s measured, where reading the pages
 * from the store took ~0.1 s), so it runs in a worker thread where the platform has them. It gives the index
 * back as an image (typed arrays and packed strings that move instead of being copied); restoring it on the
 * main thread, in slices, takes a small part of the building (build.ts).
 */

/** Strings a page gives: its id, title, description, path and Markdown. */
const STRINGS_PER_PAGE = 5;

/** How many pages are indexed between two pauses (the in-process runner runs jobs on the main thread). */
const PAGES_BETWEEN_PAUSES = 200;

/** What the job indexes: a revision's id and its indexed pages, five strings each (see STRINGS_PER_PAGE). */
export interface BuildIndexInput {
  readonly revisionId: string;
  readonly pages: PackedStrings;
}

/** The strings of one page, as build.ts packs them. */
export const pageStrings = (page: { id: string; title: string; description?: string; path: string }, markdown: string): string[] => [
  page.id,
  page.title,
  page.description ?? '',
  page.path,
  markdown,
];

/** The job that builds a search index (see the module comment). */
export const buildSearchIndexJob = defineJob({
  name: 'buildSearchIndex',
  what: 'indexing a space for search',
  async run({ revisionId, pages }: BuildIndexInput): Promise<SearchIndexImage> {
    const index = new SearchIndex(revisionId);
    const count = packedCount(pages) / STRINGS_PER_PAGE;
    for (let page = 0; page < count; page++) {
      if (page > 0 && page % PAGES_BETWEEN_PAUSES === 0) await pause();
      const [id, title, description, path, markdown] = Array.from({ length: STRINGS_PER_PAGE }, (_, k) => unpack(pages, page * STRINGS_PER_PAGE + k));
      index.add(indexedPage({ id, title, description, path }, markdown));
    }
    return index.image();
  },
  transferInput: (input) => packedBuffers(input.pages),
  transferOutput: imageBuffers,
});

/** What indexing one page needs: its fields and its Markdown. */
export interface IndexPageInput {
  readonly page: { readonly id: string; readonly title: string; readonly description?: string; readonly path: string };
  readonly markdown: string;
}

/**
 * The job that makes what one page puts in an index, for a computed page and a long document page: the
 * content an OpenAPI specification expands into can be megabytes, a written body 1 MiB, too long to cut into
 * sections and words on the main thread.
 */
export const indexPageJob = defineJob({
  name: 'indexPage',
  what: 'indexing a page for search',
  run: ({ page, markdown }: IndexPageInput): IndexedPage => indexedPage(page, markdown),
});
