import { Id } from '../schemas.js';
import { commentOperations } from './operations.js';
import { reachSpaceComments } from './place.js';

/** The comments of a space itself (not in a change request): the operations of `/v1/spaces/{spaceId}/comments`. */
const space = commentOperations({
  suffix: 'InSpace',
  noun: 'a space',
  params: { spaceId: Id },
  replyQuery: {},
  reach: (ctx, input: { spaceId: string }, options) => reachSpaceComments(ctx, input.spaceId, options),
});

/** Lists the comments of a space. */
export const listCommentsInSpace = space.listComments;
/** Posts a comment in a space. */
export const postCommentInSpace = space.postComment;
/** Gets a comment of a space. */
export const getCommentInSpace = space.getComment;
/** Updates a comment of a space: its body, its resolution, the caller's reactions. */
export const updateCommentInSpace = space.updateComment;
/** Deletes a comment of a space, with its replies. */
export const deleteCommentInSpace = space.deleteComment;
/** Lists the replies to a comment of a space. */
export const listCommentRepliesInSpace = space.listReplies;
/** Replies to a comment of a space. */
export const postCommentReplyInSpace = space.postReply;
/** Gets a reply to a comment of a space. */
export const getCommentReplyInSpace = space.getReply;
/** Updates a reply to a comment of a space: its body, the caller's reactions. */
export const updateCommentReplyInSpace = space.updateReply;
/** Deletes a reply to a comment of a space. */
export const deleteCommentReplyInSpace = space.deleteReply;
