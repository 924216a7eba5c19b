import type fc from 'fast-check';
import { expect } from 'vitest';
import { EditContent, type EditOp } from './content-commands.js';
import { CreateRequest } from './lifecycle-commands.js';
import { attempt, check, fresh, isOutdated, mergeContents, show, targetIndex, type Model, type Real, type Target } from './model.js';

/**
 * Merges a request (as the owner, or as an editor, who may not: 403). A locked space, an archived or a
 * merged request: 409. Otherwise the space's content becomes the combination of its changes and the
 * request's since the request's base, as a new revision of the space; the request is merged (final),
 * with `revisionMerged` that revision; every other request based on the old revision is now outdated.
 */
export class MergeRequest implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Target,
    readonly byEditor: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = targetIndex(model, this.target);
    const request = model.requests[index];
    real.clock.advance(1000);
    const { result, answer } = await attempt(() => (this.byEditor ? real.editor : real.owner).mergeChangeRequest({ spaceId: real.spaceId, changeRequestId: real.ids[index] }));
    if (this.byEditor) expect(result).toBe(403);
    else if (model.locked || request.status === 'archived' || request.status === 'merged') expect(result).toBe(409);
    else {
      expect(result).toBe('ok');
      const merged = mergeContents(request.base, model.space.content, request.content);
      expect(answer!.result).toBe(merged.conflicts ? 'conflicts' : 'merge');
      model.space = { content: merged.content, revision: fresh(model, answer!.revision) };
      request.status = 'merged';
      request.revisionMerged = answer!.revision;
    }
    await check(model, real, index);
  }
  toString = () => `merge(${show(this.target)}${this.byEditor ? ', editor' : ''})`;
}

/**
 * Brings a request up to date with the space (as an editor). A locked space, an archived or a merged
 * request: 409. A request that is not outdated is left as it is. Otherwise the request's content becomes
 * the same combination a merge would make, as a new revision of the request, and its base is the
 * space's revision (`revisionMergedAncestor`): it is no longer outdated.
 */
export class UpdateRequest implements fc.AsyncCommand<Model, Real> {
  constructor(readonly target: Target) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = targetIndex(model, this.target);
    const request = model.requests[index];
    real.clock.advance(1000);
    const { result, answer } = await attempt(() => real.editor.rebaseChangeRequest({ spaceId: real.spaceId, changeRequestId: real.ids[index] }));
    if (model.locked || request.status === 'archived' || request.status === 'merged') expect(result).toBe(409);
    else if (!isOutdated(model, request)) expect([result, answer]).toEqual(['ok', { revision: request.revision, result: 'update' }]);
    else {
      expect(result).toBe('ok');
      const merged = mergeContents(request.base, model.space.content, request.content);
      expect(answer!.result).toBe(merged.conflicts ? 'conflicts' : 'update');
      request.content = merged.content;
      request.base = model.space.content;
      request.revisionMergedAncestor = model.space.revision;
      request.revision = fresh(model, answer!.revision);
    }
    await check(model, real, index);
  }
  toString = () => `update(${show(this.target)})`;
}

/**
 * Someone else's change lands on the space: a new request, one batch in it, merged at once (each step
 * checked as its own command checks it). The requests made before are then outdated, and their
 * changes may meet these.
 */
export class SpaceEdit implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ops: readonly EditOp[]) {}
  check = (model: Readonly<Model>) => !model.locked;
  async run(model: Model, real: Real) {
    await new CreateRequest(false, 'Elsewhere').run(model, real);
    const last = { pick: model.requests.length - 1, any: true };
    await new EditContent(last, this.ops, false).run(model, real);
    await new MergeRequest(last, false).run(model, real);
  }
  toString = () => `space edit(${this.ops.map((op) => (op.kind === 'insert' ? '+' : `${op.kind}:${op.page}`)).join(' ')})`;
}
