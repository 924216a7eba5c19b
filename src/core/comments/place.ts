import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { assertCommentAllowed } from '../permissions.js';
import { TABLES, type ChangeRequestRecord, type CommentRecord, type CommentReplyRecord } from '../records.js';
import { loadChangeRequest } from '../change-requests/access.js';
import { loadSpace, type ReachOptions, type SpaceAccess } from '../spaces/access.js';
import { changeRequestListKey, spaceListKey } from './keys.js';

/**
 * Where comments live: a space's own discussions, or a change request's. Every operation first reaches
 * its place (404 for a space or change request the caller cannot see, 403 without the read level), then
 * finds comments only in it: a comment of another place is as missing as one that does not exist.
 */
export interface CommentPlace {
  readonly access: SpaceAccess;
  /** The change request, for its comments. */
  readonly changeRequest?: ChangeRequestRecord;
  /** The list its comments are in (keys.ts). */
  readonly listKey: string;
  /** The revision new comments target and targets are compared with: the space's, or the change request's. */
  readonly revision: string;
  /** The API path of its comment list, for `urls.location`. */
  readonly path: string;
  /** How messages name it: `space X`, `change request X`. */
  readonly name: string;
}

/** Reaches a space's own comments; write operations pass `{ purge: ctx.tx }` (a space past its window goes). */
export async function reachSpaceComments(ctx: Context, spaceId: string, options: ReachOptions = {}): Promise<CommentPlace> {
  const access = await loadSpace(ctx, spaceId, options);
  const name = `space ${spaceId}`;
  assertCommentAllowed(access.level, false, 'view', name, 'read its comments');
  return { access, listKey: spaceListKey(spaceId), revision: access.space.revision, path: `/spaces/${spaceId}/comments`, name };
}

/** Reaches the comments of a change request (by id or number); write operations pass `{ purge: ctx.tx }`. */
export async function reachChangeRequestComments(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  options: ReachOptions = {},
): Promise<CommentPlace> {
  const { changeRequest, ...access } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'view', 'read its comments', options);
  return {
    access,
    changeRequest,
    listKey: changeRequestListKey(changeRequest.id),
    revision: changeRequest.revision,
    path: `/spaces/${spaceId}/change-requests/${changeRequest.id}/comments`,
    name: `change request ${changeRequest.number} of space ${spaceId}`,
  };
}

/** Loads a comment of a place, or 404. */
export async function loadComment(ctx: Context, place: CommentPlace, commentId: string): Promise<CommentRecord> {
  const comment = (await ctx.tx.get(TABLES.comments, commentId)) as CommentRecord | undefined;
  if (!comment || comment.listKey !== place.listKey) throw notFound(`No comment ${commentId} in ${place.name}`);
  return comment;
}

/** Loads a reply to a comment, or 404. */
export async function loadReply(ctx: Context, comment: CommentRecord, replyId: string): Promise<CommentReplyRecord> {
  const reply = (await ctx.tx.get(TABLES.commentReplies, replyId)) as CommentReplyRecord | undefined;
  if (!reply || reply.commentId !== comment.id) throw notFound(`No reply ${replyId} to comment ${comment.id}`);
  return reply;
}

/** Whether the caller wrote a comment or a reply. */
export const isAuthor = (ctx: Context, posted: { readonly postedBy: string }) => posted.postedBy === ctx.actor.userId;
