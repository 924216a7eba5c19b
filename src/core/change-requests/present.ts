import type * as v from 'valibot';
import type { Context } from '../context.js';
import { changeRequestListKey, openCommentCount } from '../comments/keys.js';
import type { ChangeRequestRecord, SpaceRecord, UserRecord } from '../records.js';
import { loadUser, presentUser } from '../users/present.js';
import { baseRevisionOf } from './access.js';
import type { ChangeRequestSchema } from './schemas.js';

/** The change request object of responses. */
export type ChangeRequestOutput = v.InferInput<typeof ChangeRequestSchema>;

/** The app path of a change request (`/s/<space>/~/changes/<number>`), under which its pages are shown. */
export const changeRequestAppPath = (changeRequest: ChangeRequestRecord) => `/s/${changeRequest.spaceId}/~/changes/${changeRequest.number}`;

/**
 * Whether a change request is behind its space: the space's revision is no longer the one the request
 * started from or was last brought up to date with. A merged request is never outdated.
 */
export const isOutdated = (changeRequest: ChangeRequestRecord, space: SpaceRecord): boolean =>
  changeRequest.status !== 'merged' && space.revision !== baseRevisionOf(changeRequest);

/** How many open comments a change request has, counted now from their index (comments/keys.ts). */
const openComments = (ctx: Context, changeRequest: ChangeRequestRecord): Promise<number> =>
  openCommentCount(ctx, changeRequestListKey(changeRequest.id));

/** What a change request object shows besides the record: the users it names and its open comments. */
export interface ChangeRequestFigures {
  readonly createdBy: UserRecord;
  readonly mergedBy?: UserRecord;
  readonly comments: number;
}

/** The change request object, with its counts and `outdated` computed now against its space. */
export async function presentChangeRequest(ctx: Context, changeRequest: ChangeRequestRecord, space: SpaceRecord): Promise<ChangeRequestOutput> {
  return changeRequestObject(ctx, changeRequest, space, await changeRequestFigures(ctx, changeRequest));
}

/**
 * Reads what a change request object shows besides the record, together (one round trip on a store that
 * batches a turn's reads, as PostgreSQL does, not three). A content change moves none of it, so an edit reads
 * it alongside its content.
 */
export async function changeRequestFigures(ctx: Context, changeRequest: ChangeRequestRecord): Promise<ChangeRequestFigures> {
  const [createdBy, mergedBy, comments] = await Promise.all([
    loadUser(ctx, changeRequest.createdBy),
    changeRequest.mergedBy === undefined ? undefined : loadUser(ctx, changeRequest.mergedBy),
    openComments(ctx, changeRequest),
  ]);
  return { createdBy, ...(mergedBy && { mergedBy }), comments };
}

/**
 * The change request object from figures already known (one created in this transaction has no comments,
 * and its author is the caller), with `outdated` computed against its space.
 */
export function changeRequestObject(ctx: Context, changeRequest: ChangeRequestRecord, space: SpaceRecord, figures: ChangeRequestFigures): ChangeRequestOutput {
  return {
    object: 'change-request',
    id: changeRequest.id,
    number: changeRequest.number,
    status: changeRequest.status,
    subject: changeRequest.subject,
    createdBy: presentUser(ctx, figures.createdBy),
    createdAt: changeRequest.createdAt,
    updatedAt: changeRequest.updatedAt,
    revision: changeRequest.revision,
    revisionInitial: changeRequest.revisionInitial,
    ...(changeRequest.revisionMergedAncestor !== undefined && { revisionMergedAncestor: changeRequest.revisionMergedAncestor }),
    ...(changeRequest.revisionMerged !== undefined && { revisionMerged: changeRequest.revisionMerged }),
    ...(figures.mergedBy !== undefined && { mergedBy: presentUser(ctx, figures.mergedBy) }),
    ...(changeRequest.mergedAt !== undefined && { mergedAt: changeRequest.mergedAt }),
    comments: figures.comments,
    outdated: isOutdated(changeRequest, space),
    urls: {
      app: ctx.urls.app(changeRequestAppPath(changeRequest)),
      location: ctx.urls.api(`/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}`),
    },
  };
}
