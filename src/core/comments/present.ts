import type * as v from 'valibot';
import type { Context } from '../context.js';
import { commentPermissions } from '../permissions.js';
import { INDEXES, TABLES, type CommentRecord, type CommentReplyRecord } from '../records.js';
import { loadUser, presentUser } from '../users/present.js';
import { presentBody } from './body.js';
import { isAuthor, type CommentPlace } from './place.js';
import { presentReactions } from './reactions.js';
import type { BodyFormat, CommentReplySchema, CommentSchema } from './schemas.js';
import { targetPresenter } from './target.js';

/** The comment object of responses. */
export type CommentOutput = v.InferInput<typeof CommentSchema>;

/** The comment reply object of responses. */
export type CommentReplyOutput = v.InferInput<typeof CommentReplySchema>;

/** The fields a comment and a reply share, as the caller sees them. */
async function presentPosted(ctx: Context, place: CommentPlace, posted: CommentRecord | CommentReplyRecord, format: BodyFormat | undefined) {
  return {
    id: posted.id,
    postedBy: presentUser(ctx, await loadUser(ctx, posted.postedBy)),
    postedAt: posted.postedAt,
    ...(posted.editedAt !== undefined && { editedAt: posted.editedAt }),
    reactions: await presentReactions(ctx, posted.reactions),
    body: await presentBody(ctx, posted.markdown, format),
    permissions: commentPermissions(place.access.level, isAuthor(ctx, posted)),
  };
}

/**
 * Presents comments of one place (reading the revisions their targets are in once), each with its
 * replies counted now and the caller's permissions.
 */
export function commentPresenter(ctx: Context, place: CommentPlace, format: BodyFormat | undefined) {
  const target = targetPresenter(ctx, place);
  return async (comment: CommentRecord): Promise<CommentOutput> => {
    const replies = await ctx.tx.list(TABLES.commentReplies, { index: INDEXES.commentRepliesByComment, value: comment.id, limit: 0 });
    const resolved =
      comment.status === 'resolved'
        ? { resolvedAt: comment.resolvedAt!, resolvedBy: presentUser(ctx, await loadUser(ctx, comment.resolvedBy!)) }
        : {};
    return {
      object: 'comment',
      ...(await presentPosted(ctx, place, comment, format)),
      replies: replies.count,
      target: await target(comment),
      urls: { location: ctx.urls.api(`${place.path}/${comment.id}`) },
      status: comment.status,
      ...resolved,
    };
  };
}

/** Presents one comment. */
export function presentComment(ctx: Context, place: CommentPlace, comment: CommentRecord, format?: BodyFormat): Promise<CommentOutput> {
  return commentPresenter(ctx, place, format)(comment);
}

/** Presents a reply to a comment of a place. */
export async function presentReply(ctx: Context, place: CommentPlace, reply: CommentReplyRecord, format?: BodyFormat): Promise<CommentReplyOutput> {
  return {
    object: 'comment-reply',
    ...(await presentPosted(ctx, place, reply, format)),
    urls: { location: ctx.urls.api(`${place.path}/${reply.commentId}/replies/${reply.id}`) },
  };
}
