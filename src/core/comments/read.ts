import type { StoredRecord } from '../../store/types.js';
import type { Context } from '../context.js';
import { mapPage, pageOf, type PageRequest } from '../pagination.js';
import { INDEXES, TABLES, type CommentRecord, type CommentReplyRecord } from '../records.js';
import { loadComment, loadReply, type CommentPlace } from './place.js';
import { commentPresenter, presentComment, presentReply } from './present.js';
import type { BodyFormat } from './schemas.js';

/** What a list of comments asks for. */
export interface CommentListInput extends PageRequest {
  readonly order: 'asc' | 'desc';
  readonly status: 'all' | 'open' | 'resolved';
  readonly format?: BodyFormat;
  readonly targetPage?: string;
  readonly authors?: readonly string[];
}

/**
 * Lists the comments of a place by `postedAt` (newest first unless `order=asc`), keeping those with the
 * `status` asked for, on `targetPage`, and posted by one of `authors`. Open comments are read from their
 * own index; the other filters test each comment of the list.
 */
export async function listComments(ctx: Context, place: CommentPlace, input: CommentListInput) {
  const tests: ((comment: CommentRecord) => boolean)[] = [];
  if (input.status === 'resolved') tests.push((comment) => comment.status === 'resolved');
  if (input.targetPage !== undefined) tests.push((comment) => comment.page === input.targetPage);
  if (input.authors !== undefined && input.authors.length > 0) {
    const authors = new Set(input.authors);
    tests.push((comment) => authors.has(comment.postedBy));
  }
  const where = tests.length === 0 ? undefined : (record: StoredRecord) => tests.every((test) => test(record as CommentRecord));
  const index = input.status === 'open' ? INDEXES.commentsOpenByList : INDEXES.commentsByList;
  const page = await pageOf(ctx.tx, TABLES.comments, { index, value: place.listKey, order: input.order, where }, input);
  const present = commentPresenter(ctx, place, input.format);
  return mapPage(page, (record) => present(record as CommentRecord));
}

/** Gets a comment of a place. */
export async function getComment(ctx: Context, place: CommentPlace, input: { commentId: string; format?: BodyFormat }) {
  return presentComment(ctx, place, await loadComment(ctx, place, input.commentId), input.format);
}

/** Lists the replies to a comment, oldest first: the order of the conversation. */
export async function listReplies(ctx: Context, place: CommentPlace, input: PageRequest & { commentId: string; format?: BodyFormat }) {
  const comment = await loadComment(ctx, place, input.commentId);
  const page = await pageOf(ctx.tx, TABLES.commentReplies, { index: INDEXES.commentRepliesByComment, value: comment.id }, input);
  return mapPage(page, (record) => presentReply(ctx, place, record as CommentReplyRecord, input.format));
}

/** Gets a reply to a comment of a place. */
export async function getReply(ctx: Context, place: CommentPlace, input: { commentId: string; commentReplyId: string; format?: BodyFormat }) {
  const comment = await loadComment(ctx, place, input.commentId);
  return presentReply(ctx, place, await loadReply(ctx, comment, input.commentReplyId), input.format);
}
