import { Id } from '../schemas.js';
import { commentOperations } from './operations.js';
import { reachChangeRequestComments } from './place.js';
import { FormatQuery } from './schemas.js';

/**
 * The comments of a change request: the operations of `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments`
 * (the request by id or by number), as the space's, except that posting a reply also takes `format`.
 */
const changeRequest = commentOperations({
  suffix: 'InChangeRequest',
  noun: 'a change request',
  params: { spaceId: Id, changeRequestId: Id },
  // Unlike the space's: the specification lets a change request's reply come back as a document.
  replyQuery: FormatQuery,
  reach: (ctx, input: { spaceId: string; changeRequestId: string }, options) => reachChangeRequestComments(ctx, input.spaceId, input.changeRequestId, options),
});

/** Lists the comments of a change request. */
export const listCommentsInChangeRequest = changeRequest.listComments;
/** Posts a comment in a change request. */
export const postCommentInChangeRequest = changeRequest.postComment;
/** Gets a comment of a change request. */
export const getCommentInChangeRequest = changeRequest.getComment;
/** Updates a comment of a change request: its body, its resolution, the caller's reactions. */
export const updateCommentInChangeRequest = changeRequest.updateComment;
/** Deletes a comment of a change request, with its replies. */
export const deleteCommentInChangeRequest = changeRequest.deleteComment;
/** Lists the replies to a comment of a change request. */
export const listCommentRepliesInChangeRequest = changeRequest.listReplies;
/** Replies to a comment of a change request; `format` chooses the form of the reply's body in the response. */
export const postCommentReplyInChangeRequest = changeRequest.postReply;
/** Gets a reply to a comment of a change request. */
export const getCommentReplyInChangeRequest = changeRequest.getReply;
/** Updates a reply to a comment of a change request: its body, the caller's reactions. */
export const updateCommentReplyInChangeRequest = changeRequest.updateReply;
/** Deletes a reply to a comment of a change request. */
export const deleteCommentReplyInChangeRequest = changeRequest.deleteReply;
