import { expect } from 'vitest';
import type { manualClock } from '../../../src/core/clock.js';
import { ApiError } from '../../../src/core/errors.js';
import type { Api, Platform } from '../../../src/core/platform.js';

/**
 * The model of the discussions of one space and one of its change requests, in plain arrays: each
 * comment with its place, author, page, resolution, replies and reactions. Its rules are the and
 * docs/api-notes.md's, written out here rather than taken from the code:
 * - the `comment` role and above post, reply and react; `read` may only read (403);
 * - the author (still at the comment level) or a space admin (`create` and above) resolves, reopens and
 *   deletes a comment or a reply (403 otherwise); resolving a resolved comment keeps its first resolution;
 * - a reaction is per user and emoji: adding it twice or removing one never made changes nothing; an emoji
 *   nobody reacts with any more disappears; emojis keep the order they were first used in;
 * - lists are by `postedAt` (ties: by id), newest first by default; replies oldest first;
 * - `space.comments` and `changeRequest.comments` count the open comments of their own place.
 */

/** The organization roles of the users: user 0 is the owner. Two commenters make authorship matter. */
export const ROLES = ['admin', 'create', 'comment', 'comment', 'read'] as const;

/** The emojis users react with. */
export const EMOJIS = ['👍', '🎉', '👀'] as const;

/** Where a comment lives: 0 the space itself, 1 the change request. */
export type Place = 0 | 1;

export interface ReactionModel {
  emoji: string;
  /** The users who reacted, in order. */
  users: number[];
}

export interface ReplyModel {
  id: string;
  author: number;
  tick: number;
  reactions: ReactionModel[];
}

export interface CommentModel {
  id: string;
  place: Place;
  author: number;
  /** The index of its page in `Real.pages`, or null. */
  page: number | null;
  tick: number;
  resolved?: { by: number; tick: number };
  replies: ReplyModel[];
  reactions: ReactionModel[];
}

export interface Model {
  comments: CommentModel[];
  /** How many times the clock moved by a second. */
  tick: number;
}

export interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  spaceId: string;
  changeRequestId: string;
  pages: string[];
  /** The user ids, by index. */
  users: string[];
  /** The operations acting as each user. */
  apis: Api[];
}

/** The time of a tick. */
export const timeOf = (tick: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + tick * 1000).toISOString();

/** Whether a user may post, reply and react. */
export const mayComment = (user: number) => ['admin', 'create', 'comment'].includes(ROLES[user]);

/** Whether a user may resolve, reopen or delete what `author` posted. */
export const mayManage = (user: number, author: number) => ['admin', 'create'].includes(ROLES[user]) || (user === author && mayComment(user));

/** Picks an element by a natural number, modulo the length (undefined when there is none). */
export const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);

/** Runs an operation and returns its result, or the status it failed with. */
export async function outcome<T>(action: () => Promise<T>): Promise<{ ok: T } | { status: number }> {
  try {
    return { ok: await action() };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status };
    throw error;
  }
}

/** Moves the clock a second (or not) before a command acts, so that some posts tie on postedAt. */
export function tickIf(advance: boolean, model: Model, real: Real): void {
  if (!advance) return;
  model.tick++;
  real.clock.advance(1000);
}

/** The comment operations of a place, acting as a user. */
export function placeApi(real: Real, user: number, place: Place) {
  const api = real.apis[user];
  const { spaceId, changeRequestId } = real;
  if (place === 0) {
    return {
      list: (query: Omit<Parameters<Api['listCommentsInSpace']>[0], 'spaceId'>) => api.listCommentsInSpace({ spaceId, ...query }),
      post: (body: Omit<Parameters<Api['postCommentInSpace']>[0], 'spaceId'>) => api.postCommentInSpace({ spaceId, ...body }),
      get: (commentId: string) => api.getCommentInSpace({ spaceId, commentId }),
      update: (commentId: string, body: { resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] }) =>
        api.updateCommentInSpace({ spaceId, commentId, ...body }),
      delete: (commentId: string) => api.deleteCommentInSpace({ spaceId, commentId }),
      replies: (commentId: string) => api.listCommentRepliesInSpace({ spaceId, commentId, limit: 1000 }),
      reply: (commentId: string) => api.postCommentReplyInSpace({ spaceId, commentId, body: { markdown: 'A reply' } }),
      updateReply: (commentId: string, commentReplyId: string, body: { addedReactions?: string[]; removedReactions?: string[] }) =>
        api.updateCommentReplyInSpace({ spaceId, commentId, commentReplyId, ...body }),
      deleteReply: (commentId: string, commentReplyId: string) => api.deleteCommentReplyInSpace({ spaceId, commentId, commentReplyId }),
    };
  }
  return {
    list: (query: Omit<Parameters<Api['listCommentsInChangeRequest']>[0], 'spaceId' | 'changeRequestId'>) =>
      api.listCommentsInChangeRequest({ spaceId, changeRequestId, ...query }),
    post: (body: Omit<Parameters<Api['postCommentInChangeRequest']>[0], 'spaceId' | 'changeRequestId'>) =>
      api.postCommentInChangeRequest({ spaceId, changeRequestId, ...body }),
    get: (commentId: string) => api.getCommentInChangeRequest({ spaceId, changeRequestId, commentId }),
    update: (commentId: string, body: { resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] }) =>
      api.updateCommentInChangeRequest({ spaceId, changeRequestId, commentId, ...body }),
    delete: (commentId: string) => api.deleteCommentInChangeRequest({ spaceId, changeRequestId, commentId }),
    replies: (commentId: string) => api.listCommentRepliesInChangeRequest({ spaceId, changeRequestId, commentId, limit: 1000 }),
    reply: (commentId: string) => api.postCommentReplyInChangeRequest({ spaceId, changeRequestId, commentId, body: { markdown: 'A reply' } }),
    updateReply: (commentId: string, commentReplyId: string, body: { addedReactions?: string[]; removedReactions?: string[] }) =>
      api.updateCommentReplyInChangeRequest({ spaceId, changeRequestId, commentId, commentReplyId, ...body }),
    deleteReply: (commentId: string, commentReplyId: string) => api.deleteCommentReplyInChangeRequest({ spaceId, changeRequestId, commentId, commentReplyId }),
  };
}

/** Applies a reaction change by `user` to a model's reactions. */
export function react(reactions: ReactionModel[], user: number, emoji: string, add: boolean): ReactionModel[] {
  const entry = reactions.find((reaction) => reaction.emoji === emoji);
  if (add) {
    if (!entry) return [...reactions, { emoji, users: [user] }];
    return entry.users.includes(user) ? reactions : reactions.map((reaction) => (reaction === entry ? { emoji, users: [...entry.users, user] } : reaction));
  }
  if (!entry || !entry.users.includes(user)) return reactions;
  const users = entry.users.filter((other) => other !== user);
  return users.length === 0 ? reactions.filter((reaction) => reaction !== entry) : reactions.map((reaction) => (reaction === entry ? { emoji, users } : reaction));
}

const byTickThenId = (a: { tick: number; id: string }, b: { tick: number; id: string }) => a.tick - b.tick || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The reactions of a response as [emoji, user ids in order], for comparison. */
const reactionsOf = (reactions: readonly { emoji: string; count: number; users: readonly { user: { id: string } }[] }[]) =>
  reactions.map((reaction) => {
    expect(reaction.count).toBe(reaction.users.length);
    return [reaction.emoji, reaction.users.map((entry) => entry.user.id)];
  });

const modelReactions = (real: Real, reactions: readonly ReactionModel[]) => reactions.map((reaction) => [reaction.emoji, reaction.users.map((user) => real.users[user])]);

/** Compares every list filter, count, thread and reaction of both places with the model. */
export async function verify(model: Model, real: Real): Promise<void> {
  const owner = real.apis[0];
  const space = await owner.getSpace({ spaceId: real.spaceId });
  const request = await owner.getChangeRequest({ spaceId: real.spaceId, changeRequestId: real.changeRequestId });
  for (const place of [0, 1] as const) {
    const all = model.comments.filter((comment) => comment.place === place).sort(byTickThenId);
    const ids = (comments: CommentModel[]) => comments.map((comment) => comment.id);
    const api = placeApi(real, 2, place);
    const listed = async (query: Parameters<typeof api.list>[0]) => {
      const page = await api.list({ limit: 1000, ...query });
      expect(page.count).toBe(page.items.length);
      return page.items.map((item) => item.id);
    };
    expect(await listed({}), `place ${place}: all, newest first`).toEqual(ids(all).reverse());
    expect(await listed({ order: 'asc' }), `place ${place}: oldest first`).toEqual(ids(all));
    const open = all.filter((comment) => !comment.resolved);
    expect(await listed({ order: 'asc', status: 'open' }), `place ${place}: open`).toEqual(ids(open));
    expect(await listed({ order: 'asc', status: 'resolved' }), `place ${place}: resolved`).toEqual(ids(all.filter((comment) => comment.resolved)));
    for (let page = 0; page < real.pages.length; page++) {
      expect(await listed({ order: 'asc', targetPage: real.pages[page] }), `place ${place}: page ${page}`).toEqual(ids(all.filter((comment) => comment.page === page)));
    }
    for (let user = 0; user < real.users.length; user++) {
      expect(await listed({ order: 'asc', authors: [real.users[user]] }), `place ${place}: by ${user}`).toEqual(ids(all.filter((comment) => comment.author === user)));
    }
    const combined = all.filter((comment) => !comment.resolved && [2, 3].includes(comment.author) && comment.page === 0);
    expect(await listed({ status: 'open', authors: [real.users[2], real.users[3]], targetPage: real.pages[0] })).toEqual(ids(combined).reverse());
    expect(place === 0 ? space.comments : request.comments, `place ${place}: count of open comments`).toBe(open.length);

    // Each comment as the creator (a space admin) and as a commenter sees it.
    const asAdmin = await placeApi(real, 1, place).list({ order: 'asc', limit: 1000 });
    const asCommenter = await api.list({ order: 'asc', limit: 1000 });
    for (const [i, comment] of all.entries()) {
      const item = asCommenter.items[i];
      expect(item.status).toBe(comment.resolved ? 'resolved' : 'open');
      expect(item.resolvedBy?.id).toBe(comment.resolved ? real.users[comment.resolved.by] : undefined);
      expect(item.resolvedAt).toBe(comment.resolved ? timeOf(comment.resolved.tick) : undefined);
      expect(item.postedBy.id).toBe(real.users[comment.author]);
      expect(item.target.page?.id).toBe(comment.page === null ? undefined : real.pages[comment.page]);
      expect(item.replies).toBe(comment.replies.length);
      expect(reactionsOf(item.reactions)).toEqual(modelReactions(real, comment.reactions));
      expect(item.permissions).toEqual({ view: true, reply: true, edit: mayManage(2, comment.author), delete: mayManage(2, comment.author) });
      expect(asAdmin.items[i].permissions).toEqual({ view: true, reply: true, edit: true, delete: true });
      const replies = await api.replies(comment.id);
      const thread = [...comment.replies].sort(byTickThenId);
      expect(replies.items.map((reply) => reply.id)).toEqual(thread.map((reply) => reply.id));
      for (const [j, reply] of thread.entries()) {
        expect(replies.items[j].postedBy.id).toBe(real.users[reply.author]);
        expect(reactionsOf(replies.items[j].reactions)).toEqual(modelReactions(real, reply.reactions));
        expect(replies.items[j].permissions.delete).toBe(mayManage(2, reply.author));
      }
    }
    // A comment is found only in its own place.
    const first = all[0];
    if (first) expect(await outcome(() => placeApi(real, 0, place === 0 ? 1 : 0).get(first.id))).toEqual({ status: 404 });
  }
}
