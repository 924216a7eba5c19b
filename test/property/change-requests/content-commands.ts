import type fc from 'fast-check';
import { expect } from 'vitest';
import { attempt, check, fresh, pickOf, show, targetIndex, type Model, type Page, type Real, type Target } from './model.js';

/**
 * One change of a batch: insert a new page, or retitle, rewrite, delete or revert (to the request's base)
 * a page picked by position.
 */
export interface EditOp {
  readonly kind: 'insert' | 'title' | 'body' | 'delete' | 'revert';
  readonly page: number;
}

/**
 * Applies a batch of changes to a request (as an editor), sometimes with an invalid change in the middle.
 * Refused on a locked space and on archived or merged requests (409), and for the invalid change (400):
 * then nothing changes. Otherwise the request has the changed content as a new revision.
 */
export class EditContent implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Target,
    readonly ops: readonly EditOp[],
    readonly broken: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = targetIndex(model, this.target);
    const request = model.requests[index];
    const { pages } = await real.owner.listChangeRequestPages({ spaceId: real.spaceId, changeRequestId: real.ids[index] });
    const idOf = new Map((pages as { id: string; path: string }[]).map((page) => [page.path, page.id]));
    const next = new Map<string, Page>(request.content);
    const changes: unknown[] = [];
    const insert = () => {
      const n = ++real.inserted;
      const page = { title: `Page ${n}`, body: `Body ${++real.written}` };
      changes.push({ operation: 'insert_page', title: page.title, document: { markdown: page.body } });
      next.set(`page-${n}`, page);
    };
    for (const op of this.ops) {
      if (op.kind === 'insert') {
        insert();
        continue;
      }
      if (op.kind === 'revert') {
        // Any page the request or its base has, that the run has read (not one this batch inserted).
        const path = pickOf([...new Set([...next.keys(), ...request.base.keys()])].filter((each) => real.pageIds.has(each)).sort(), op.page);
        if (path === undefined) continue;
        changes.push({ operation: 'revert_page', page: real.pageIds.get(path) });
        const was = request.base.get(path);
        if (was) next.set(path, was);
        else next.delete(path);
        continue;
      }
      // Pages that were there before the batch and that it did not delete.
      const path = pickOf([...next.keys()].filter((each) => idOf.has(each)).sort(), op.page);
      if (path === undefined) continue;
      const page = idOf.get(path)!;
      if (op.kind === 'delete') {
        changes.push({ operation: 'delete_page', page });
        next.delete(path);
      } else if (op.kind === 'title') {
        const title = `Title ${++real.written}`;
        changes.push({ operation: 'update_page', page, title });
        next.set(path, { ...next.get(path)!, title });
      } else {
        const body = `Body ${++real.written}`;
        changes.push({ operation: 'update_page', page, document: { markdown: body } });
        next.set(path, { ...next.get(path)!, body });
      }
    }
    if (changes.length === 0) insert();
    if (this.broken) changes.splice(changes.length >> 1, 0, { operation: 'update_page', page: 'missing', title: 'X' });
    real.clock.advance(1000);
    const { result, answer } = await attempt(() => real.editor.updateChangeRequestContent({ spaceId: real.spaceId, changeRequestId: real.ids[index], changes: changes as never }));
    if (model.locked || request.status === 'archived' || request.status === 'merged') expect(result).toBe(409);
    else if (this.broken) expect(result).toBe(400);
    else {
      expect(result).toBe('ok');
      request.content = next;
      request.revision = fresh(model, (answer as { revision: string }).revision);
    }
    await check(model, real, index);
  }
  toString = () => `edit(${show(this.target)}, ${this.ops.map((op) => (op.kind === 'insert' ? '+' : `${op.kind}:${op.page}`)).join(' ')}${this.broken ? ', broken' : ''})`;
}
