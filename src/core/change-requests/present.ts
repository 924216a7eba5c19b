import type * as v from 'valibot';
import type { Context } from '../context.js';
import { changeRequestListKey, openCommentCount } from '../comments/keys.js';
import type { ChangeRequestRecord, SpaceRecord } from '../records.js';
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

/** The change request object, with its counts and `outdated` computed now against its space. */
export async function presentChangeRequest(ctx: Context, changeRequest: ChangeRequestRecord, space: SpaceRecord): Promise<ChangeRequestOutput> {
  return {
    object: 'change-request',
    id: changeRequest.id,
    number: changeRequest.number,
    status: changeRequest.status,
    subject: changeRequest.subject,
    createdBy: presentUser(ctx, await loadUser(ctx, changeRequest.createdBy)),
    createdAt: changeRequest.createdAt,
    updatedAt: changeRequest.updatedAt,
    revision: changeRequest.revision,
    revisionInitial: changeRequest.revisionInitial,
    ...(changeRequest.revisionMergedAncestor !== undefined && { revisionMergedAncestor: changeRequest.revisionMergedAncestor }),
    ...(changeRequest.revisionMerged !== undefined && { revisionMerged: changeRequest.revisionMerged }),
    ...(changeRequest.mergedBy !== undefined && { mergedBy: presentUser(ctx, await loadUser(ctx, changeRequest.mergedBy)) }),
    ...(changeRequest.mergedAt !== undefined && { mergedAt: changeRequest.mergedAt }),
    comments: await openComments(ctx, changeRequest),
    outdated: isOutdated(changeRequest, space),
    urls: {
      app: ctx.urls.app(changeRequestAppPath(changeRequest)),
      location: ctx.urls.api(`/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}`),
    },
  };
}
