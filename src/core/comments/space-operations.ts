import { readOperation, writeOperation } from '../operation.js';
import { Id } from '../schemas.js';
import { deleteComment, deleteReply } from './delete.js';
import { reachSpaceComments } from './place.js';
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

/** The comments of a space itself (not in a change request): the operations of `/v1/spaces/{spaceId}/comments`. */

const COMMENT = { spaceId: Id, commentId: Id };
const REPLY = { ...COMMENT, commentReplyId: Id };

/** Lists the comments of a space. */
export const listCommentsInSpace = readOperation({
  name: 'listCommentsInSpace',
  summary: 'List the comments of a space',
  params: { spaceId: Id },
  query: CommentListQuery,
  response: CommentList,
  run: async (ctx, input) => listComments(ctx, await reachSpaceComments(ctx, input.spaceId), input),
});

/** Posts a comment in a space. */
export const postCommentInSpace = writeOperation({
  name: 'postCommentInSpace',
  summary: 'Post a comment in a space',
  params: { spaceId: Id },
  body: PostCommentBody,
  response: CommentSchema,
  run: async (ctx, input) => postComment(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});

/** Gets a comment of a space. */
export const getCommentInSpace = readOperation({
  name: 'getCommentInSpace',
  summary: 'Get a comment of a space',
  params: COMMENT,
  query: FormatQuery,
  response: CommentSchema,
  run: async (ctx, input) => getComment(ctx, await reachSpaceComments(ctx, input.spaceId), input),
});

/** Updates a comment of a space: its body, its resolution, the caller's reactions. */
export const updateCommentInSpace = writeOperation({
  name: 'updateCommentInSpace',
  summary: 'Update a comment of a space',
  params: COMMENT,
  body: UpdateCommentBody,
  response: CommentSchema,
  run: async (ctx, input) => updateComment(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});

/** Deletes a comment of a space, with its replies. */
export const deleteCommentInSpace = writeOperation({
  name: 'deleteCommentInSpace',
  summary: 'Delete a comment of a space',
  params: COMMENT,
  response: null,
  run: async (ctx, input) => deleteComment(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});

/** Lists the replies to a comment of a space. */
export const listCommentRepliesInSpace = readOperation({
  name: 'listCommentRepliesInSpace',
  summary: 'List the replies to a comment of a space',
  params: COMMENT,
  query: ReplyListQuery,
  response: CommentReplyList,
  run: async (ctx, input) => listReplies(ctx, await reachSpaceComments(ctx, input.spaceId), input),
});

/** Replies to a comment of a space. */
export const postCommentReplyInSpace = writeOperation({
  name: 'postCommentReplyInSpace',
  summary: 'Reply to a comment of a space',
  params: COMMENT,
  body: PostReplyBody,
  response: CommentReplySchema,
  run: async (ctx, input) => postReply(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});

/** Gets a reply to a comment of a space. */
export const getCommentReplyInSpace = readOperation({
  name: 'getCommentReplyInSpace',
  summary: 'Get a reply to a comment of a space',
  params: REPLY,
  query: FormatQuery,
  response: CommentReplySchema,
  run: async (ctx, input) => getReply(ctx, await reachSpaceComments(ctx, input.spaceId), input),
});

/** Updates a reply to a comment of a space: its body, the caller's reactions. */
export const updateCommentReplyInSpace = writeOperation({
  name: 'updateCommentReplyInSpace',
  summary: 'Update a reply to a comment of a space',
  params: REPLY,
  body: UpdateReplyBody,
  response: CommentReplySchema,
  run: async (ctx, input) => updateReply(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});

/** Deletes a reply to a comment of a space. */
export const deleteCommentReplyInSpace = writeOperation({
  name: 'deleteCommentReplyInSpace',
  summary: 'Delete a reply to a comment of a space',
  params: REPLY,
  response: null,
  run: async (ctx, input) => deleteReply(ctx, await reachSpaceComments(ctx, input.spaceId, { purge: ctx.tx }), input),
});
