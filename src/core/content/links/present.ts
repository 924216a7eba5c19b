import type * as v from 'valibot';
import type { ContentTarget } from '../target.js';
import type { ContentLocationSchema, LinkEntrySchema, PageLocationSchema } from './schemas.js';
import type { LinkRef } from './scan.js';
import type { LinkStatus } from './status.js';

/**
 * Link entries and references as responses. References name the organization, the space, the revision
 * and the page or file by id (the specification lists these fields without more; an id also names a
 * target that does not exist, which a broken link must be able to do).
 */

/** A page reference. */
export type PageLocation = v.InferInput<typeof PageLocationSchema>;
/** A reference to a page, a file or a URL. */
export type ContentLocation = v.InferInput<typeof ContentLocationSchema>;
/** A link entry. */
export type LinkEntry = v.InferInput<typeof LinkEntrySchema>;

/** The ids every page or file reference of one list carries. */
export interface Where {
  readonly organization: string;
  readonly space: string;
  readonly revision: string;
}

/** The ids of the organization, space and revision a list reads. */
export function whereOf(target: ContentTarget): Where {
  return { organization: target.access.space.organizationId, space: target.access.space.id, revision: target.revision.id };
}

/** The reference of a page of the revision, optionally at one of its anchors. */
export function pageLocation(where: Where, page: string, anchor?: string): PageLocation {
  return {
    kind: 'page',
    organization: where.organization,
    space: where.space,
    versionContext: { type: 'revision', revision: where.revision },
    page,
    ...(anchor !== undefined && { internalLocation: { type: 'anchor' as const, anchor } }),
  };
}

/** The reference of a link target. */
function targetLocation(where: Where, ref: LinkRef): ContentLocation {
  switch (ref.kind) {
    case 'page':
      return pageLocation(where, ref.page, ref.anchor);
    case 'file':
      return {
        kind: 'file',
        organization: where.organization,
        space: where.space,
        versionContext: { type: 'revision', revision: where.revision },
        file: ref.file,
      };
    default:
      return { kind: 'url', url: ref.url };
  }
}

/** A link entry: a target, its status, and the pages linking to it. */
export function linkEntry(where: Where, ref: LinkRef, status: LinkStatus, locations: readonly string[]): LinkEntry {
  return {
    status,
    relation: 'reference',
    targetReference: targetLocation(where, ref),
    locationReferences: locations.map((page) => pageLocation(where, page)),
  };
}
