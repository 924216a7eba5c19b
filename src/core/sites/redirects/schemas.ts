import * as v from 'valibot';
import { listSchema } from '../../pagination.js';
import type { SiteRedirectRecord } from '../../records.js';
import { HttpUrl, Id, Timestamp } from '../../schemas.js';

/**
 * The schemas of site redirects, as the public API's SiteRedirect and its inputs: a source path of the site
 * (percent-encoded; `*` at its end, after a `/` or not, matches any rest of a path), and a destination: a
 * section, a site space, a page of a site space, or a URL. A request may also name a page by its space and
 * path (`kind: "path"`), which becomes the page of the site space that shows that space.
 */

/**
 * A source path (SiteRedirectSourcePath): the public API's pattern, at most 512 characters. One whose
 * escapes are not UTF-8 (`/%FF`) is taken as it is written, and matches no reader's path (readers' paths
 * that do not decode are a 404 before any redirect).
 */
export const SourcePath = v.pipe(
  v.string(),
  v.maxLength(512, 'must be at most 512 characters'),
  v.regex(
    /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/,
    'must be a path such as /old/page, percent-encoded, with * only at its end (/old/* or /old*)',
  ),
);

/** A source path as readers' paths are compared with it: percent-decoded, or as written when it does not decode. */
export function decodedSource(source: string): string {
  try {
    return decodeURIComponent(source);
  } catch {
    return source;
  }
}

/** Where a redirect leads, as stored and answered (SiteRedirectDestination). */
export const DestinationSchema = v.variant('kind', [
  v.object({ kind: v.literal('site-section'), siteSectionId: Id }),
  v.object({ kind: v.literal('site-space'), siteSpaceId: Id }),
  v.object({ kind: v.literal('site-page'), siteSpaceId: Id, pageId: Id }),
  v.object({ kind: v.literal('external'), url: HttpUrl }),
]);

/** Where a redirect leads, as a request may say it (SiteRedirectInputDestination): also a page by its space and path. */
export const DestinationInput = v.variant('kind', [...DestinationSchema.options, v.object({ kind: v.literal('path'), spaceId: Id, path: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(1000, 'must be at most 1000 characters')) })]);

/** A destination a request gives. */
export type DestinationInputValue = v.InferOutput<typeof DestinationInput>;

/** The site redirect object of responses. */
export const SiteRedirectSchema = v.object({
  object: v.literal('site-redirect'),
  id: v.string(),
  source: v.string(),
  draft: v.boolean(),
  captureWildcard: v.boolean(),
  permanent: v.boolean(),
  destination: DestinationSchema,
  createdAt: Timestamp,
  updatedAt: v.optional(Timestamp),
});

/** A list of site redirects. */
export const SiteRedirectList = listSchema(SiteRedirectSchema);

/** The site redirect object of a record. */
export function presentRedirect(record: SiteRedirectRecord): v.InferInput<typeof SiteRedirectSchema> {
  return {
    object: 'site-redirect',
    id: record.id,
    source: record.source,
    draft: record.draft,
    captureWildcard: record.captureWildcard,
    permanent: record.permanent,
    destination: record.destination,
    createdAt: record.createdAt,
    ...(record.updatedAt !== undefined && { updatedAt: record.updatedAt }),
  };
}

/** The result of one redirect of a bulk upsert (the public API's, by `status`). */
export const BulkResultSchema = v.variant('status', [
  v.object({ status: v.literal('created'), source: v.string(), draft: v.boolean(), id: v.string() }),
  v.object({ status: v.literal('updated'), source: v.string(), draft: v.boolean(), id: v.string() }),
  v.object({ status: v.literal('deleted'), source: v.string(), draft: v.boolean() }),
  v.object({ status: v.literal('published'), source: v.string(), draft: v.literal(false), id: v.string() }),
  v.object({ status: v.literal('error'), source: v.string(), draft: v.boolean(), error: v.string() }),
]);
