import * as v from 'valibot';
import { listQuery, listSchema } from '../../pagination.js';
import { LINK_STATUSES } from './status.js';

/** The query of a link list: the list's `page` and `limit`, and `status` to keep one status. */
export const LinkListQuery = {
  ...listQuery,
  status: v.optional(v.picklist(LINK_STATUSES)),
};

/** The revision a reference is read in: `{type: 'revision', revision: <revision id>}`. */
const RevisionContextSchema = v.object({ type: v.literal('revision'), revision: v.string() });

/** A page reference (`organization`, `space` and `page` are ids), with an anchor for links to a heading. */
export const PageLocationSchema = v.object({
  kind: v.literal('page'),
  organization: v.string(),
  space: v.string(),
  versionContext: v.optional(RevisionContextSchema),
  page: v.string(),
  internalLocation: v.optional(v.object({ type: v.literal('anchor'), anchor: v.string() })),
});

/** A reference to content (ContentLocation): a page, a file, or a URL. */
export const ContentLocationSchema = v.variant('kind', [
  PageLocationSchema,
  v.object({
    kind: v.literal('file'),
    organization: v.string(),
    space: v.string(),
    versionContext: v.optional(RevisionContextSchema),
    file: v.string(),
  }),
  v.object({ kind: v.literal('url'), url: v.string() }),
]);

/** A link entry (ContentReferenceUsage): one target, its status, and every page linking to it. */
export const LinkEntrySchema = v.object({
  status: v.picklist(LINK_STATUSES),
  relation: v.literal('reference'),
  targetReference: v.optional(ContentLocationSchema),
  locationReferences: v.array(ContentLocationSchema),
});

/** The counts of a link list, over the whole list whatever `status` keeps. */
export const LinkStatsSchema = v.object({
  total: v.number(),
  broken: v.object({ total: v.number(), changeRequest: v.optional(v.number()) }),
});

/** A page of link entries with the list's stats. */
export const LinkListSchema = v.object({ ...listSchema(LinkEntrySchema).entries, stats: LinkStatsSchema });

/** A page of backlink entries: the pages that link to or show a file. */
export const BacklinkListSchema = listSchema(PageLocationSchema);
