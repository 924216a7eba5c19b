import type fc from 'fast-check';
import { expect } from 'vitest';
import { EMOJIS, mayComment, mayManage, outcome, pick, placeApi, react, tickIf, verify, type CommentModel, type Model, type Real, type ReplyModel } from './model.js';

/** Every reply, with its comment, in the order comments and replies were made. */
const allReplies = (model: Readonly<Model>) => model.comments.flatMap((comment) => comment.replies.map((reply) => ({ comment, reply })));

/** Replies to a comment picked by position. */
export class PostReply implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly comment: number,
    readonly advance: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.comments.length > 0;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const comment = pick(model.comments, this.comment)!;
    const result = await outcome(() => placeApi(real, this.user, comment.place).reply(comment.id));
    if (!mayComment(this.user)) {
      expect(result).toEqual({ status: 403 });
    } else {
      if (!('ok' in result)) throw new Error(`reply refused: ${JSON.stringify(result)}`);
      comment.replies.push({ id: result.ok.id, author: this.user, tick: model.tick, reactions: [] });
    }
    await verify(model, real);
  }
  toString = () => `PostReply(user ${this.user}, comment ${this.comment}, advance ${this.advance})`;
}

/** Deletes a reply picked by position among all replies. */
export class DeleteReply implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly reply: number,
  ) {}
  check = (model: Readonly<Model>) => allReplies(model).length > 0;
  async run(model: Model, real: Real) {
    const { comment, reply } = pick(allReplies(model), this.reply)!;
    const result = await outcome(() => placeApi(real, this.user, comment.place).deleteReply(comment.id, reply.id));
    if (!mayManage(this.user, reply.author)) {
      expect(result).toEqual({ status: 403 });
    } else {
      expect(result).toEqual({ ok: undefined });
      comment.replies.splice(comment.replies.indexOf(reply), 1);
    }
    await verify(model, real);
  }
  toString = () => `DeleteReply(user ${this.user}, reply ${this.reply})`;
}

/**
 * Adds or removes a reaction on a comment or a reply picked by position among all of them (comments
 * first, then replies). Adding twice and removing what one did not add are part of the sequences.
 */
export class React implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly target: number,
    readonly emoji: number,
    readonly add: boolean,
    readonly advance: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.comments.length > 0;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const targets: { comment: CommentModel; reply?: ReplyModel }[] = [...model.comments.map((comment) => ({ comment })), ...allReplies(model)];
    const { comment, reply } = pick(targets, this.target)!;
    const emoji = EMOJIS[this.emoji % EMOJIS.length];
    const change = this.add ? { addedReactions: [emoji] } : { removedReactions: [emoji] };
    const api = placeApi(real, this.user, comment.place);
    const result = await outcome(async () => {
      if (reply) await api.updateReply(comment.id, reply.id, change);
      else await api.update(comment.id, change);
    });
    if (!mayComment(this.user)) {
      expect(result).toEqual({ status: 403 });
    } else {
      expect('ok' in result).toBe(true);
      const owner = reply ?? comment;
      owner.reactions = react(owner.reactions, this.user, emoji, this.add);
    }
    await verify(model, real);
  }
  toString = () => `React(user ${this.user}, target ${this.target}, ${EMOJIS[this.emoji % EMOJIS.length]}, ${this.add ? 'add' : 'remove'})`;
}
