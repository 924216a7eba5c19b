import type fc from 'fast-check';
import { expect } from 'vitest';
import { outcome } from '../outcome.js';
import { attempt, check, show, targetIndex, type Model, type Real, type Target } from './model.js';

/** The statuses PATCH may set. */
export const SETTABLE = ['draft', 'open', 'archived'] as const;

/** Creates a request (as the owner or an editor): refused on a locked space; else a draft from the space's revision and content. */
export class CreateRequest implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly byEditor: boolean,
    readonly subject: string | undefined,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.advance(1000);
    const api = this.byEditor ? real.editor : real.owner;
    const { result, answer: created } = await attempt(() => api.createChangeRequest({ spaceId: real.spaceId, ...(this.subject !== undefined && { subject: this.subject }) }));
    if (model.locked) expect(result).toBe(409);
    else {
      expect(result).toBe('ok');
      const { content, revision } = model.space;
      model.requests.push({ status: 'draft', subject: this.subject ?? '', base: content, content, revision, revisionInitial: revision });
      real.ids.push(created!.id);
      expect([created!.number, created!.status]).toEqual([model.requests.length, 'draft']);
    }
    await check(model, real, model.locked ? undefined : model.requests.length - 1);
  }
  toString = () => `create(${this.byEditor ? 'editor' : 'owner'}, ${JSON.stringify(this.subject)})`;
}

/** Sets a request's status (as an editor): any of draft, open, archived, even on a locked space; a merged request is final. */
export class SetStatus implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Target,
    readonly status: (typeof SETTABLE)[number],
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = targetIndex(model, this.target);
    const request = model.requests[index];
    real.clock.advance(1000);
    const result = await outcome(() => real.editor.updateChangeRequest({ spaceId: real.spaceId, changeRequestId: real.ids[index], status: this.status }));
    if (request.status === 'merged') expect(result).toBe(409);
    else {
      expect(result).toBe('ok');
      request.status = this.status;
    }
    await check(model, real, index);
  }
  toString = () => `status(${show(this.target)}, ${this.status})`;
}

/** Sets a request's subject by its number: over 100 characters is a 400; a merged request is final. */
export class SetSubject implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Target,
    readonly subject: string,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = targetIndex(model, this.target);
    const request = model.requests[index];
    const result = await outcome(() => real.owner.updateChangeRequest({ spaceId: real.spaceId, changeRequestId: String(index + 1), subject: this.subject }));
    if (this.subject.length > 100) expect(result).toBe(400);
    else if (request.status === 'merged') expect(result).toBe(409);
    else {
      expect(result).toBe('ok');
      request.subject = this.subject;
    }
    await check(model, real, index);
  }
  toString = () => `subject(${show(this.target)}, ${this.subject.length} chars)`;
}

/** Locks or unlocks the space (setting what it already is changes nothing). */
export class SetLock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly locked: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    model.locked = this.locked;
    await real.owner.updateSpace({ spaceId: real.spaceId, editMode: this.locked ? 'locked' : 'live' });
    await check(model, real);
  }
  toString = () => (this.locked ? 'lock' : 'unlock');
}
