import * as v from 'valibot';
import { MAX_FETCHED_FILE_BYTES } from '../author/schemas.js';

/** Every source the public API names for an import (0.130 to 0.143.2), supported or not. */
export const IMPORT_SOURCES = ['website', 'docx', 'markdown', 'html', 'zip', 'confluence', 'github-wiki', 'notion', 'google-docs'] as const;

/** What kind of content an import reads. */
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** The sources this platform imports; the others are refused with a 400 that names these. */
export const SUPPORTED_SOURCES = ['markdown', 'html', 'website', 'zip'] as const satisfies readonly ImportSource[];

/** The most bytes an import downloads: the limit of any fetched file (10 MiB). */
export const MAX_IMPORT_BYTES = MAX_FETCHED_FILE_BYTES;
/** The most pages one import creates (folder pages and groups included). */
export const MAX_IMPORT_PAGES = 1000;
/** The most entries (files and folders) a zip archive may list. */
export const MAX_ZIP_ENTRIES = 5000;
/** The most bytes all the entries of a zip archive may inflate to, together (a zip bomb stops here). */
export const MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;
/** The most bytes one entry of a zip archive may inflate to: the limit of any fetched file. */
export const MAX_ZIP_ENTRY_BYTES = MAX_FETCHED_FILE_BYTES;
/**
 * The most bytes of Markdown one imported page may hold: what one authoring request can carry (1 MiB), so
 * that an import makes no page that the API could not have made otherwise.
 */
export const MAX_PAGE_MARKDOWN_BYTES = 1024 * 1024;

/** Where the content is: an absolute http(s) URL of at most 2048 characters. */
const ImportUrl = v.pipe(
  v.string(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be an absolute URL'),
  v.regex(/^https?:\/\//i, 'must be an http or https URL'),
);

/** The body of an import: the URL to fetch and what it holds. */
export const ImportBody = {
  url: ImportUrl,
  source: v.picklist(IMPORT_SOURCES),
};

/** The answer of an import (the specification's "Import result"). */
export const ImportResultSchema = v.object({
  /** The id of the revision the import made. */
  revision: v.string(),
  /** How many pages and files the import created. */
  importedResources: v.number(),
  /** How many resources the source held: those imported and those skipped. */
  totalResources: v.number(),
});
