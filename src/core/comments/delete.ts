import type { WriteContext } from '../context.js';
import { assertCommentAllowed } from '../permissions.js';
import { INDEXES, TABLES } from '../records.js';
import { isAuthor, loadComment, loadReply, type CommentPlace } from './place.js';

/** Deletes a comment with its replies; its author or a space admin. */
export async function deleteComment(ctx: WriteContext, place: CommentPlace, input: { commentId: string }): Promise<void> {
  const comment = await loadComment(ctx, place, input.commentId);
  assertCommentAllowed(place.access.level, isAuthor(ctx, comment), 'delete', place.name, 'delete it');
  const { items } = await ctx.tx.list(TABLES.commentReplies, { index: INDEXES.commentRepliesByComment, value: comment.id });
  for (const reply of items) await ctx.tx.delete(TABLES.commentReplies, reply.id);
  await ctx.tx.delete(TABLES.comments, comment.id);
}

/** Deletes a reply; its author or a space admin. */
export async function deleteReply(ctx: WriteContext, place: CommentPlace, input: { commentId: string; commentReplyId: string }): Promise<void> {
  const comment = await loadComment(ctx, place, input.commentId);
  const reply = await loadReply(ctx, comment, input.commentReplyId);
  assertCommentAllowed(place.access.level, isAuthor(ctx, reply), 'delete', place.name, 'delete it');
  await ctx.tx.delete(TABLES.commentReplies, reply.id);
}
