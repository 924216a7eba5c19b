import type { WriteContext } from '../context.js';
import { assertCommentAllowed } from '../permissions.js';
import { TABLES, type CommentRecord, type CommentReplyRecord } from '../records.js';
import { readBody } from './body.js';
import { loadComment, type CommentPlace } from './place.js';
import { presentComment, presentReply } from './present.js';
import type { BodyFormat, BodyValue } from './schemas.js';
import { resolveTarget } from './target.js';

/** Posts an open comment in a place, about the place itself or one of its pages (and a node of it). */
export async function postComment(ctx: WriteContext, place: CommentPlace, input: { body: BodyValue; page?: string; node?: string }) {
  assertCommentAllowed(place.access.level, false, 'reply', place.name, 'comment on it');
  const markdown = await readBody(ctx, input.body);
  const target = await resolveTarget(ctx, place, input);
  const comment: CommentRecord = {
    id: ctx.ids.id(),
    spaceId: place.access.space.id,
    ...(place.changeRequest && { changeRequestId: place.changeRequest.id }),
    status: 'open',
    postedAt: ctx.now,
    listKey: place.listKey,
    openKey: place.listKey,
    postedBy: ctx.actor.userId,
    markdown,
    revision: place.revision,
    ...target,
    reactions: [],
  };
  await ctx.tx.insert(TABLES.comments, comment);
  return presentComment(ctx, place, comment);
}

/** Replies to a comment of a place (resolved or not: a reply does not reopen it). */
export async function postReply(ctx: WriteContext, place: CommentPlace, input: { commentId: string; body: BodyValue; format?: BodyFormat }) {
  const comment = await loadComment(ctx, place, input.commentId);
  assertCommentAllowed(place.access.level, false, 'reply', place.name, 'reply to its comments');
  const reply: CommentReplyRecord = {
    id: ctx.ids.id(),
    spaceId: comment.spaceId,
    commentId: comment.id,
    postedBy: ctx.actor.userId,
    postedAt: ctx.now,
    markdown: await readBody(ctx, input.body),
    reactions: [],
  };
  await ctx.tx.insert(TABLES.commentReplies, reply);
  return presentReply(ctx, place, reply, input.format);
}
