import { route } from '../operation.js';
import {
  deleteCommentInSpace,
  deleteCommentReplyInSpace,
  getCommentInSpace,
  getCommentReplyInSpace,
  listCommentRepliesInSpace,
  listCommentsInSpace,
  postCommentInSpace,
  postCommentReplyInSpace,
  updateCommentInSpace,
  updateCommentReplyInSpace,
} from './space-operations.js';
import {
  deleteCommentInChangeRequest,
  deleteCommentReplyInChangeRequest,
  getCommentInChangeRequest,
  getCommentReplyInChangeRequest,
  listCommentRepliesInChangeRequest,
  listCommentsInChangeRequest,
  postCommentInChangeRequest,
  postCommentReplyInChangeRequest,
  updateCommentInChangeRequest,
  updateCommentReplyInChangeRequest,
} from './change-request-operations.js';

const SPACE = '/v1/spaces/{spaceId}/comments';
const CHANGE_REQUEST = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments';

/** The comment and reply endpoints of spaces and change requests. */
export const commentRoutes = [
  route('GET', SPACE, listCommentsInSpace, 200),
  // 200, not 201: the specification's (and the public API's) status for a new comment or reply.
  route('POST', SPACE, postCommentInSpace, 200),
  route('GET', `${SPACE}/{commentId}`, getCommentInSpace, 200),
  route('PUT', `${SPACE}/{commentId}`, updateCommentInSpace, 200),
  route('DELETE', `${SPACE}/{commentId}`, deleteCommentInSpace, 205),
  route('GET', `${SPACE}/{commentId}/replies`, listCommentRepliesInSpace, 200),
  route('POST', `${SPACE}/{commentId}/replies`, postCommentReplyInSpace, 200),
  route('GET', `${SPACE}/{commentId}/replies/{commentReplyId}`, getCommentReplyInSpace, 200),
  route('PUT', `${SPACE}/{commentId}/replies/{commentReplyId}`, updateCommentReplyInSpace, 200),
  // Not shown in the specification; the public API deletes a reply this way (205).
  route('DELETE', `${SPACE}/{commentId}/replies/{commentReplyId}`, deleteCommentReplyInSpace, 205, { extension: true }),
  route('GET', CHANGE_REQUEST, listCommentsInChangeRequest, 200),
  route('POST', CHANGE_REQUEST, postCommentInChangeRequest, 200),
  route('GET', `${CHANGE_REQUEST}/{commentId}`, getCommentInChangeRequest, 200),
  route('PUT', `${CHANGE_REQUEST}/{commentId}`, updateCommentInChangeRequest, 200),
  route('DELETE', `${CHANGE_REQUEST}/{commentId}`, deleteCommentInChangeRequest, 205),
  route('GET', `${CHANGE_REQUEST}/{commentId}/replies`, listCommentRepliesInChangeRequest, 200),
  route('POST', `${CHANGE_REQUEST}/{commentId}/replies`, postCommentReplyInChangeRequest, 200),
  route('GET', `${CHANGE_REQUEST}/{commentId}/replies/{commentReplyId}`, getCommentReplyInChangeRequest, 200),
  route('PUT', `${CHANGE_REQUEST}/{commentId}/replies/{commentReplyId}`, updateCommentReplyInChangeRequest, 200),
  route('DELETE', `${CHANGE_REQUEST}/{commentId}/replies/{commentReplyId}`, deleteCommentReplyInChangeRequest, 205, { extension: true }),
];
