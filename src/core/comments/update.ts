import type { WriteContext } from '../context.js';
import { assertCommentAllowed } from '../permissions.js';
import { TABLES, type CommentRecord, type CommentReplyRecord } from '../records.js';
import { readBody } from './body.js';
import { isAuthor, loadComment, loadReply, type CommentPlace } from './place.js';
import { presentComment, presentReply } from './present.js';
import { applyReactions } from './reactions.js';
import type { BodyFormat, BodyValue } from './schemas.js';

/** What an update of a comment or a reply may change. */
interface PostedChanges {
  readonly body?: BodyValue;
  readonly addedReactions?: readonly string[];
  readonly removedReactions?: readonly string[];
}

/**
 * A comment or reply with an update's body and reactions applied, after the checks: a new body needs
 * the author or a space admin (`edit`), reactions the comment level (`reply`). `editedAt` moves only
 * when the body really changes. Returns the record itself when nothing changes.
 */
async function applyPostedChanges<T extends CommentRecord | CommentReplyRecord>(ctx: WriteContext, place: CommentPlace, posted: T, changes: PostedChanges, editing: boolean): Promise<T> {
  const author = isAuthor(ctx, posted);
  if (editing) assertCommentAllowed(place.access.level, author, 'edit', place.name, 'change it');
  const reacting = (changes.addedReactions?.length ?? 0) + (changes.removedReactions?.length ?? 0) > 0;
  if (reacting) assertCommentAllowed(place.access.level, author, 'reply', place.name, 'react to its comments');
  let next = posted;
  if (changes.body !== undefined) {
    const markdown = await readBody(ctx, changes.body);
    if (markdown !== posted.markdown) next = { ...next, markdown, editedAt: ctx.now };
  }
  const reactions = applyReactions(posted.reactions, ctx.actor.userId, ctx.now, changes.addedReactions, changes.removedReactions);
  return reactions === posted.reactions ? next : { ...next, reactions };
}

/** A comment resolved (by the caller, now) or reopened; the record itself when it already is. */
function withResolution(ctx: WriteContext, comment: CommentRecord, resolved: boolean | undefined): CommentRecord {
  if (resolved === undefined || resolved === (comment.status === 'resolved')) return comment;
  const { openKey: _openKey, resolvedAt: _resolvedAt, resolvedBy: _resolvedBy, ...rest } = comment;
  return resolved
    ? { ...rest, status: 'resolved', resolvedAt: ctx.now, resolvedBy: ctx.actor.userId }
    : { ...rest, status: 'open', openKey: comment.listKey };
}

/**
 * Updates a comment (PUT): its body, its resolution (`resolved: true` resolves it, `false` reopens it)
 * and the caller's reactions. The author or a space admin may change the body and the resolution.
 */
export async function updateComment(ctx: WriteContext, place: CommentPlace, input: PostedChanges & { commentId: string; resolved?: boolean }) {
  const comment = await loadComment(ctx, place, input.commentId);
  const edited = await applyPostedChanges(ctx, place, comment, input, input.body !== undefined || input.resolved !== undefined);
  const next = withResolution(ctx, edited, input.resolved);
  if (next !== comment) await ctx.tx.put(TABLES.comments, next);
  return presentComment(ctx, place, next);
}

/** Updates a reply (PUT): its body (its author or a space admin) and the caller's reactions. */
export async function updateReply(ctx: WriteContext, place: CommentPlace, input: PostedChanges & { commentId: string; commentReplyId: string; format?: BodyFormat }) {
  const comment = await loadComment(ctx, place, input.commentId);
  const reply = await loadReply(ctx, comment, input.commentReplyId);
  const next = await applyPostedChanges(ctx, place, reply, input, input.body !== undefined);
  if (next !== reply) await ctx.tx.put(TABLES.commentReplies, next);
  return presentReply(ctx, place, next, input.format);
}
