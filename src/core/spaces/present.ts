import type * as v from 'valibot';
import type { Context } from '../context.js';
import { spacePermissions } from '../permissions.js';
import { openCommentCount, spaceListKey } from '../comments/keys.js';
import type { StoredRecord } from '../../store/types.js';
import { INDEXES, TABLES, type ChangeRequestRecord, type MemberRecord, type SpaceRecord } from '../records.js';
import { contentLevels, type ContentLevels } from './levels.js';
import type { SpaceSchema } from './schemas.js';
import { uriComponent } from '../well-formed.js';
import type { GitSyncRecord } from '../git-sync/git-sync-record.js';
import { spaceGitSyncOf } from '../git-sync/space-git-sync.js';

/** The space object of responses. */
export type SpaceOutput = v.InferInput<typeof SpaceSchema>;

/** Options of a space's presentation. */
export interface PresentOptions {
  /** The share key of a share-link reader, added to the published URL. */
  readonly shareKey?: string;
}

/** How many of a space's change requests there are (with `status`: in that status), counted now. */
async function countChangeRequests(ctx: Context, spaceId: string, status?: ChangeRequestRecord['status']) {
  const where = status === undefined ? undefined : (record: StoredRecord) => record.status === status;
  return (await ctx.tx.list(TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: spaceId, limit: 0, where })).count;
}

/** The URLs of a space: published ones only when someone but members may read it. */
function spaceUrls(ctx: Context, space: SpaceRecord, options: PresentOptions) {
  const urls: SpaceOutput['urls'] = { location: ctx.urls.api(`/spaces/${space.id}`), app: ctx.urls.app(`/s/${space.id}`) };
  if (space.visibility === 'private') return urls;
  const published = ctx.urls.published(`/s/${space.id}`);
  const share = space.visibility === 'share-link' && options.shareKey !== undefined ? `?share=${uriComponent(options.shareKey)}` : '';
  urls.published = published + share;
  if (space.visibility === 'public') urls.public = published;
  return urls;
}

/** The time shown for a space whose times the caller may not see. */
const NO_TIME = new Date(0).toISOString();

/**
 * A space as a caller who may not view it sees it (a site shows its spaces to every member): its id and
 * where it lives, and nothing that describes it or its content. The other fields the schema requires hold
 * the values of a new, empty space, with no access.
 */
function presentHiddenSpace(ctx: Context, space: SpaceRecord): SpaceOutput {
  return {
    object: 'space',
    id: space.id,
    title: '',
    emoji: '',
    visibility: 'private',
    createdAt: NO_TIME,
    updatedAt: NO_TIME,
    editMode: 'live',
    urls: { location: ctx.urls.api(`/spaces/${space.id}`), app: ctx.urls.app(`/s/${space.id}`) },
    organization: space.organizationId,
    revision: '',
    defaultLevel: null,
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: spacePermissions(null, 'live'),
  };
}

/** The counts a space object shows. */
export interface SpaceCounts {
  readonly comments: number;
  readonly changeRequests: number;
  readonly changeRequestsOpen: number;
  readonly changeRequestsDraft: number;
}

/** The counts of a space created in this transaction: nothing refers to it yet. */
export const NEW_SPACE_COUNTS: SpaceCounts = { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 };

/**
 * The space object as the member whose levels are given sees it, with its counts computed now; for a
 * member who may not view it, only its id (presentHiddenSpace).
 */
export async function presentSpace(ctx: Context, space: SpaceRecord, levels: ContentLevels, options: PresentOptions = {}): Promise<SpaceOutput> {
  if (!spacePermissions(levels.space(space), space.editMode).view) return presentHiddenSpace(ctx, space);
  // Read together: one round trip on a store that batches a turn's reads (PostgreSQL), not four.
  const [comments, changeRequests, changeRequestsOpen, changeRequestsDraft, sync] = await Promise.all([
    // The space's own open comments (one in a change request counts for the change request), from their index.
    openCommentCount(ctx, spaceListKey(space.id)),
    countChangeRequests(ctx, space.id),
    countChangeRequests(ctx, space.id, 'open'),
    countChangeRequests(ctx, space.id, 'draft'),
    ctx.tx.get(TABLES.gitSyncs, space.id) as Promise<GitSyncRecord | undefined>,
  ]);
  return spaceObject(ctx, space, levels, { comments, changeRequests, changeRequestsOpen, changeRequestsDraft }, options, spaceGitSyncOf(sync));
}

/**
 * The space object from counts already known (a space created in this transaction has none, so its
 * operation answers without reading them back); for a member who may not view it, only its id.
 */
export function spaceObject(
  ctx: Context,
  space: SpaceRecord,
  levels: ContentLevels,
  counts: SpaceCounts,
  options: PresentOptions = {},
  /** The space's Git Sync, once synced (space-git-sync.ts). */
  gitSync?: ReturnType<typeof spaceGitSyncOf>,
): SpaceOutput {
  const permissions = spacePermissions(levels.space(space), space.editMode);
  if (!permissions.view) return presentHiddenSpace(ctx, space);
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt !== undefined && { deletedAt: space.deletedAt }),
    editMode: space.editMode,
    ...(space.language !== undefined && { language: space.language as SpaceOutput['language'] }),
    urls: spaceUrls(ctx, space, options),
    organization: space.organizationId,
    ...(space.parent !== undefined && { parent: space.parent }),
    ...(space.visibility === 'visitor-auth' && { visitorAuth: { backend: 'custom' as const } }),
    ...(gitSync && { gitSync }),
    revision: space.revision,
    defaultLevel: levels.defaultLevelOf(space),
    ...counts,
    permissions,
  };
}

/** Presents a space to a member, with levels read now (after the operation's writes). */
export async function presentSpaceTo(ctx: Context, space: SpaceRecord, member: MemberRecord, options: PresentOptions = {}) {
  return presentSpace(ctx, space, await contentLevels(ctx, space.organizationId, member), options);
}
