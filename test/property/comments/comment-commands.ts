import type fc from 'fast-check';
import { expect } from 'vitest';
import { mayComment, mayManage, outcome, pick, placeApi, tickIf, verify, type Model, type Place, type Real } from './model.js';

/** Posts a comment in a place, on one of the pages or on none. */
export class PostComment implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly place: Place,
    readonly page: number | null,
    readonly advance: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const page = this.page === null ? undefined : real.pages[this.page % real.pages.length];
    const result = await outcome(() => placeApi(real, this.user, this.place).post({ body: { markdown: `By ${this.user}` }, ...(page && { page }) }));
    if (!mayComment(this.user)) {
      expect(result).toEqual({ status: 403 });
    } else {
      if (!('ok' in result)) throw new Error(`post refused: ${JSON.stringify(result)}`);
      expect(result.ok).toMatchObject({ status: 'open', replies: 0, reactions: [], postedBy: { id: real.users[this.user] } });
      model.comments.push({
        id: result.ok.id,
        place: this.place,
        author: this.user,
        page: page === undefined ? null : this.page! % real.pages.length,
        tick: model.tick,
        replies: [],
        reactions: [],
      });
    }
    await verify(model, real);
  }
  toString = () => `PostComment(user ${this.user}, place ${this.place}, page ${this.page}, advance ${this.advance})`;
}

/** Resolves or reopens a comment picked by position. */
export class SetResolved implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly comment: number,
    readonly resolved: boolean,
    readonly advance: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.comments.length > 0;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const comment = pick(model.comments, this.comment)!;
    const result = await outcome(() => placeApi(real, this.user, comment.place).update(comment.id, { resolved: this.resolved }));
    if (!mayManage(this.user, comment.author)) {
      expect(result).toEqual({ status: 403 });
    } else {
      expect('ok' in result).toBe(true);
      if (!this.resolved) delete comment.resolved;
      else comment.resolved ??= { by: this.user, tick: model.tick };
    }
    await verify(model, real);
  }
  toString = () => `SetResolved(user ${this.user}, comment ${this.comment}, ${this.resolved}, advance ${this.advance})`;
}

/** Deletes a comment picked by position, with its replies. */
export class DeleteComment implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly comment: number,
  ) {}
  check = (model: Readonly<Model>) => model.comments.length > 0;
  async run(model: Model, real: Real) {
    const comment = pick(model.comments, this.comment)!;
    const result = await outcome(() => placeApi(real, this.user, comment.place).delete(comment.id));
    if (!mayManage(this.user, comment.author)) {
      expect(result).toEqual({ status: 403 });
    } else {
      expect(result).toEqual({ ok: undefined });
      model.comments.splice(model.comments.indexOf(comment), 1);
      expect(await outcome(() => placeApi(real, 0, comment.place).get(comment.id))).toEqual({ status: 404 });
    }
    await verify(model, real);
  }
  toString = () => `DeleteComment(user ${this.user}, comment ${this.comment})`;
}
