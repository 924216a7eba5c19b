import type { Context } from '../context.js';
import { readOperation, writeOperation, type Entries } from '../operation.js';
import { Id } from '../schemas.js';
import type { ReachOptions } from '../spaces/access.js';
import { deleteComment, deleteReply } from './delete.js';
import type { CommentPlace } from './place.js';
import { postComment, postReply } from './post.js';
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
import { updateComment, updateReply } from './update.js';

/** Where one family of comment operations works: a space's own discussions, or a change request's. */
interface PlaceKind<P extends Entries, R extends Entries> {
  /** What the operation names end with: `InSpace`, `InChangeRequest`. */
  readonly suffix: string;
  /** How summaries name the place: `a space`, `a change request`. */
  readonly noun: string;
  /** The path parameters that name the place. */
  readonly params: P;
  /** The query of posting a reply (a change request's reply may come back as a document). */
  readonly replyQuery: R;
  /** Reaches the place of a request's input; write operations pass `{ purge: ctx.tx }`. */
  readonly reach: (ctx: Context, input: any, options?: ReachOptions) => Promise<CommentPlace>;
}

/**
 * The ten comment operations of one place (list, post, get, update and delete comments; the same for
 * replies), from one definition: the space's and the change request's differ only in their path and
 * in what posting a reply takes.
 */
export function commentOperations<P extends Entries, R extends Entries>(kind: PlaceKind<P, R>) {
  const { suffix, noun, params, reach } = kind;
  const comment = { ...params, commentId: Id };
  const reply = { ...comment, commentReplyId: Id };
  // Each `run` takes `input: any`: TypeScript cannot narrow a generic `P`'s inferred input to the fields the
  // shared functions read; the schemas above have validated them, and callers still get the precise types.
  const reader = (ctx: Context, input: unknown) => reach(ctx, input);
  const writer = (ctx: Context<any>, input: unknown) => reach(ctx, input, { purge: ctx.tx });
  return {
    listComments: readOperation({
      name: `listComments${suffix}`,
      summary: `List the comments of ${noun}`,
      params,
      query: CommentListQuery,
      response: CommentList,
      run: async (ctx, input: any) => listComments(ctx, await reader(ctx, input), input),
    }),
    postComment: writeOperation({
      name: `postComment${suffix}`,
      summary: `Post a comment in ${noun}`,
      params,
      body: PostCommentBody,
      response: CommentSchema,
      run: async (ctx, input: any) => postComment(ctx, await writer(ctx, input), input),
    }),
    getComment: readOperation({
      name: `getComment${suffix}`,
      summary: `Get a comment of ${noun}`,
      params: comment,
      query: FormatQuery,
      response: CommentSchema,
      run: async (ctx, input: any) => getComment(ctx, await reader(ctx, input), input),
    }),
    updateComment: writeOperation({
      name: `updateComment${suffix}`,
      summary: `Update a comment of ${noun}`,
      params: comment,
      body: UpdateCommentBody,
      response: CommentSchema,
      run: async (ctx, input: any) => updateComment(ctx, await writer(ctx, input), input),
    }),
    deleteComment: writeOperation({
      name: `deleteComment${suffix}`,
      summary: `Delete a comment of ${noun}`,
      params: comment,
      response: null,
      run: async (ctx, input: any) => deleteComment(ctx, await writer(ctx, input), input),
    }),
    listReplies: readOperation({
      name: `listCommentReplies${suffix}`,
      summary: `List the replies to a comment of ${noun}`,
      params: comment,
      query: ReplyListQuery,
      response: CommentReplyList,
      run: async (ctx, input: any) => listReplies(ctx, await reader(ctx, input), input),
    }),
    postReply: writeOperation({
      name: `postCommentReply${suffix}`,
      summary: `Reply to a comment of ${noun}`,
      params: comment,
      query: kind.replyQuery,
      body: PostReplyBody,
      response: CommentReplySchema,
      run: async (ctx, input: any) => postReply(ctx, await writer(ctx, input), input),
    }),
    getReply: readOperation({
      name: `getCommentReply${suffix}`,
      summary: `Get a reply to a comment of ${noun}`,
      params: reply,
      query: FormatQuery,
      response: CommentReplySchema,
      run: async (ctx, input: any) => getReply(ctx, await reader(ctx, input), input),
    }),
    updateReply: writeOperation({
      name: `updateCommentReply${suffix}`,
      summary: `Update a reply to a comment of ${noun}`,
      params: reply,
      body: UpdateReplyBody,
      response: CommentReplySchema,
      run: async (ctx, input: any) => updateReply(ctx, await writer(ctx, input), input),
    }),
    deleteReply: writeOperation({
      name: `deleteCommentReply${suffix}`,
      summary: `Delete a reply to a comment of ${noun}`,
      params: reply,
      response: null,
      run: async (ctx, input: any) => deleteReply(ctx, await writer(ctx, input), input),
    }),
  };
}
