import type { Context } from '../context.js';
import { readOperation, writeOperation } from '../operation.js';
import type { ReachOptions } from '../spaces/access.js';
import { Id } from '../schemas.js';
import { deleteComment, deleteReply } from './delete.js';
import { reachChangeRequestComments } from './place.js';
import { postComment, postReply } from './post.js';
import { updateComment, updateReply } from './update.js';
import { getComment, getReply, listComments, listReplies } from './read.js';
import {
  CommentList,
  CommentListQuery,
  CommentReplyList,
  CommentReplySchema,
  CommentSchema,
  FormatQuery,
  PostCommentBody,
  PostReplyBody,
  ReplyListQuery,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas.js';

/**
 * The comments of a change request: the operations of `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments`
 * (the request by id or by number), as the space's, except that posting a reply also takes `format`.
 */

const CHANGE_REQUEST = { spaceId: Id, changeRequestId: Id };
const COMMENT = { ...CHANGE_REQUEST, commentId: Id };
const REPLY = { ...COMMENT, commentReplyId: Id };

/** Reaches the change request of the path; write operations pass `{ purge: ctx.tx }`. */
const reach = (ctx: Context, input: { spaceId: string; changeRequestId: string }, options?: ReachOptions) =>
  reachChangeRequestComments(ctx, input.spaceId, input.changeRequestId, options);

/** Lists the comments of a change request. */
export const listCommentsInChangeRequest = readOperation({
  name: 'listCommentsInChangeRequest',
  summary: 'List the comments of a change request',
  params: CHANGE_REQUEST,
  query: CommentListQuery,
  response: CommentList,
  run: async (ctx, input) => listComments(ctx, await reach(ctx, input), input),
});

/** Posts a comment in a change request. */
export const postCommentInChangeRequest = writeOperation({
  name: 'postCommentInChangeRequest',
  summary: 'Post a comment in a change request',
  params: CHANGE_REQUEST,
  body: PostCommentBody,
  response: CommentSchema,
  run: async (ctx, input) => postComment(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});

/** Gets a comment of a change request. */
export const getCommentInChangeRequest = readOperation({
  name: 'getCommentInChangeRequest',
  summary: 'Get a comment of a change request',
  params: COMMENT,
  query: FormatQuery,
  response: CommentSchema,
  run: async (ctx, input) => getComment(ctx, await reach(ctx, input), input),
});

/** Updates a comment of a change request: its body, its resolution, the caller's reactions. */
export const updateCommentInChangeRequest = writeOperation({
  name: 'updateCommentInChangeRequest',
  summary: 'Update a comment of a change request',
  params: COMMENT,
  body: UpdateCommentBody,
  response: CommentSchema,
  run: async (ctx, input) => updateComment(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});

/** Deletes a comment of a change request, with its replies. */
export const deleteCommentInChangeRequest = writeOperation({
  name: 'deleteCommentInChangeRequest',
  summary: 'Delete a comment of a change request',
  params: COMMENT,
  response: null,
  run: async (ctx, input) => deleteComment(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});

/** Lists the replies to a comment of a change request. */
export const listCommentRepliesInChangeRequest = readOperation({
  name: 'listCommentRepliesInChangeRequest',
  summary: 'List the replies to a comment of a change request',
  params: COMMENT,
  query: ReplyListQuery,
  response: CommentReplyList,
  run: async (ctx, input) => listReplies(ctx, await reach(ctx, input), input),
});

/** Replies to a comment of a change request; `format` chooses the form of the reply's body in the response. */
export const postCommentReplyInChangeRequest = writeOperation({
  name: 'postCommentReplyInChangeRequest',
  summary: 'Reply to a comment of a change request',
  params: COMMENT,
  // Unlike the space's: the specification lets a change request's reply come back as a document.
  query: FormatQuery,
  body: PostReplyBody,
  response: CommentReplySchema,
  run: async (ctx, input) => postReply(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});

/** Gets a reply to a comment of a change request. */
export const getCommentReplyInChangeRequest = readOperation({
  name: 'getCommentReplyInChangeRequest',
  summary: 'Get a reply to a comment of a change request',
  params: REPLY,
  query: FormatQuery,
  response: CommentReplySchema,
  run: async (ctx, input) => getReply(ctx, await reach(ctx, input), input),
});

/** Updates a reply to a comment of a change request: its body, the caller's reactions. */
export const updateCommentReplyInChangeRequest = writeOperation({
  name: 'updateCommentReplyInChangeRequest',
  summary: 'Update a reply to a comment of a change request',
  params: REPLY,
  body: UpdateReplyBody,
  response: CommentReplySchema,
  run: async (ctx, input) => updateReply(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});

/** Deletes a reply to a comment of a change request. */
export const deleteCommentReplyInChangeRequest = writeOperation({
  name: 'deleteCommentReplyInChangeRequest',
  summary: 'Delete a reply to a comment of a change request',
  params: REPLY,
  response: null,
  run: async (ctx, input) => deleteReply(ctx, await reach(ctx, input, { purge: ctx.tx }), input),
});
