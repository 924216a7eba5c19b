import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * The change request lifecycle checked against a model (fast-check's musicPlayer pattern), merge aside:
 * creating requests (by the owner or an editor), setting their status among draft, open and archived,
 * changing their subject (sometimes too long), applying content batches (sometimes with a bad change),
 * and locking or unlocking the space. After every step the space's counts (`changeRequests`,
 * `changeRequestsOpen`, `changeRequestsDraft`), the list of each status, and the touched request's status,
 * number, subject, page count and revision must be what the model says.
 *
 * The model is plain data: whether the space is locked, and per request its status, subject and number
 * of pages. Its rules: a request starts as a draft with the next number; PATCH sets any of draft, open,
 * archived, on a locked space too; a subject over 100 characters is a 400 that changes nothing; a batch
 * adds its pages as one new revision, is refused (409) on a locked space or an archived request and
 * (400) when one of its changes names a page that is not there, and then changes nothing.
 */

const NUM_RUNS = 40;
const STATUSES = ['draft', 'open', 'archived'] as const;
type Status = (typeof STATUSES)[number];

interface ModelRequest {
  status: Status;
  subject: string;
  pages: number;
}

interface Model {
  locked: boolean;
  requests: ModelRequest[];
}

interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  owner: Api;
  editor: Api;
  spaceId: string;
  /** The id of each request, in creation order (the model's order). */
  ids: string[];
}

/** The status of an ApiError a call rejects with, or 'ok'. */
async function outcome(call: () => Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

/** Checks everything the model says about the space and, when given, one request. */
async function check(model: Model, real: Real, index?: number) {
  const space = await real.owner.getSpace({ spaceId: real.spaceId });
  const count = (status: Status) => model.requests.filter((request) => request.status === status).length;
  expect([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft]).toEqual([model.requests.length, count('open'), count('draft')]);
  for (const status of STATUSES) {
    const list = await real.owner.listChangeRequests({ spaceId: real.spaceId, status, limit: 1000 });
    expect(list.count).toBe(count(status));
    const numbers = model.requests.map((request, i) => [request.status, i + 1] as const).filter(([s]) => s === status).map(([, n]) => n).reverse();
    expect(list.items.map((item) => item.number)).toEqual(numbers);
  }
  if (index === undefined) return;
  const expected = model.requests[index];
  const actual = await real.owner.getChangeRequest({ spaceId: real.spaceId, changeRequestId: String(index + 1) });
  expect(actual).toMatchObject({ id: real.ids[index], number: index + 1, status: expected.status, subject: expected.subject, outdated: false });
  const { pages } = await real.owner.listChangeRequestPages({ spaceId: real.spaceId, changeRequestId: real.ids[index] });
  expect(pages.length).toBe(expected.pages);
  expect(actual.revision === actual.revisionInitial).toBe(expected.pages === 0);
}

class CreateRequest implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly byEditor: boolean,
    readonly subject: string | undefined,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.advance(1000);
    const api = this.byEditor ? real.editor : real.owner;
    let created: { id: string; number: number; status: string } | undefined;
    const result = await outcome(async () => {
      created = await api.createChangeRequest({ spaceId: real.spaceId, ...(this.subject !== undefined && { subject: this.subject }) });
    });
    if (model.locked) expect(result).toBe(409);
    else {
      expect(result).toBe('ok');
      model.requests.push({ status: 'draft', subject: this.subject ?? '', pages: 0 });
      real.ids.push(created!.id);
      expect([created!.number, created!.status]).toEqual([model.requests.length, 'draft']);
    }
    await check(model, real, model.requests.length - 1 >= 0 ? model.requests.length - 1 : undefined);
  }
  toString = () => `create(${this.byEditor ? 'editor' : 'owner'}, ${JSON.stringify(this.subject)})`;
}

class SetStatus implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly status: Status,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.requests.length;
    real.clock.advance(1000);
    expect(await outcome(() => real.editor.updateChangeRequest({ spaceId: real.spaceId, changeRequestId: real.ids[index], status: this.status }))).toBe('ok');
    model.requests[index].status = this.status;
    await check(model, real, index);
  }
  toString = () => `status(#${this.pick}, ${this.status})`;
}

class SetSubject implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly subject: string,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.requests.length;
    const result = await outcome(() => real.owner.updateChangeRequest({ spaceId: real.spaceId, changeRequestId: String(index + 1), subject: this.subject }));
    if (this.subject.length > 100) expect(result).toBe(400);
    else {
      expect(result).toBe('ok');
      model.requests[index].subject = this.subject;
    }
    await check(model, real, index);
  }
  toString = () => `subject(#${this.pick}, ${this.subject.length} chars)`;
}

class EditContent implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly pages: number,
    readonly broken: boolean,
  ) {}
  check = (model: Readonly<Model>) => model.requests.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.requests.length;
    const changes = Array.from({ length: this.pages }, (_, i) => ({ operation: 'insert_page' as const, title: `Page ${i}`, document: { markdown: `Body ${i}` } }));
    if (this.broken) changes.splice(this.pages >> 1, 0, { operation: 'update_page', page: 'missing', title: 'X' } as never);
    real.clock.advance(1000);
    const result = await outcome(() => real.editor.updateChangeRequestContent({ spaceId: real.spaceId, changeRequestId: real.ids[index], changes }));
    const request = model.requests[index];
    if (model.locked || request.status === 'archived') expect(result).toBe(409);
    else if (this.broken) expect(result).toBe(400);
    else {
      expect(result).toBe('ok');
      request.pages += this.pages;
    }
    await check(model, real, index);
  }
  toString = () => `edit(#${this.pick}, +${this.pages}${this.broken ? ', broken' : ''})`;
}

class ToggleLock implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real) {
    model.locked = !model.locked;
    await real.owner.updateSpace({ spaceId: real.spaceId, editMode: model.locked ? 'locked' : 'live' });
    await check(model, real);
  }
  toString = () => 'toggle lock';
}

async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'k' });
  const init = await platform.initialize({ title: 'Acme', email: 'owner@acme.test', name: 'Owner' });
  const editor = await platform.addUser({ organizationId: init.organizationId, email: 'editor@acme.test', name: 'Editor', role: 'edit' });
  const owner = platform.as(init.userId);
  const space = await owner.createSpace({ organizationId: init.organizationId, title: 'Docs' });
  return {
    model: { locked: false, requests: [] },
    real: { platform, clock, owner, editor: platform.as(editor.userId), spaceId: space.id, ids: [] },
  };
}

describe('change request lifecycle (model-based, without merge)', () => {
  it('keeps statuses, numbers, subjects, content and the space counts as the model says', async () => {
    const commands = [
      fc.tuple(fc.boolean(), fc.option(fc.string({ maxLength: 20 }), { nil: undefined })).map(([byEditor, subject]) => new CreateRequest(byEditor, subject)),
      fc.tuple(fc.nat(), fc.constantFrom(...STATUSES)).map(([pick, status]) => new SetStatus(pick, status)),
      fc.tuple(fc.nat(), fc.oneof(fc.string({ maxLength: 100 }), fc.string({ minLength: 101, maxLength: 120 }))).map(([pick, subject]) => new SetSubject(pick, subject)),
      fc.tuple(fc.nat(), fc.integer({ min: 1, max: 4 }), fc.boolean()).map(([pick, pages, broken]) => new EditContent(pick, pages, broken)),
      fc.constant(new ToggleLock()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25, size: 'max' }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
