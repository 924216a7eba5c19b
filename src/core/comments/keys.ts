import type { Context } from '../context.js';
import { INDEXES, TABLES } from '../records.js';

/**
 * Which list a comment is in: a space's own comments, or a change request's. Comments keep it in
 * `listKey` (and in `openKey` while open), so every list and count reads one index group.
 */

/** The list key of the comments on a space itself (not in a change request). */
export const spaceListKey = (spaceId: string) => `space:${spaceId}`;

/** The list key of the comments in a change request. */
export const changeRequestListKey = (changeRequestId: string) => `change-request:${changeRequestId}`;

/** How many comments of a list are open, counted now from their index (no comment is read). */
export async function openCommentCount(ctx: Pick<Context, 'tx'>, listKey: string): Promise<number> {
  return (await ctx.tx.list(TABLES.comments, { index: INDEXES.commentsOpenByList, value: listKey, limit: 0 })).count;
}
