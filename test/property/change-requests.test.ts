import fc from 'fast-check';
import { describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { EditContent, type EditOp } from './change-requests/content-commands.js';
import { EXAMPLES, type Run } from './change-requests/examples.js';
import { CreateRequest, SETTABLE, SetLock, SetStatus, SetSubject } from './change-requests/lifecycle-commands.js';
import { MergeRequest, SpaceEdit, UpdateRequest } from './change-requests/merge-commands.js';
import { check, type Model, type Real } from './change-requests/model.js';
import { runs } from './runs.js';

/**
 * The change request lifecycle checked against a model (fast-check's musicPlayer pattern; the model and
 * its rules are in change-requests/model.ts): creating requests (by the owner or an editor), setting
 * their status among draft, open and archived (reopening an archived one), changing their subject
 * (sometimes too long), content batches that insert, retitle, rewrite, delete and revert pages (sometimes
 * with a bad change), merging (sometimes as an editor, who may not), bringing requests up to date, and locking
 * or unlocking the space. Merging one request moves the space on, so the others become outdated and
 * their merges and updates combine both sides' changes, with conflicts. After every step the space's
 * counts, revision and content, every request's status, subject, revisions and `outdated`, the list of
 * each status, and the touched request's content must be what the model says.
 */

const NUM_RUNS = runs(60);

/** A change of a batch; pages are picked among the first few (by path), so that two requests' changes often meet. */
const opArb: fc.Arbitrary<EditOp> = fc.record({
  kind: fc.constantFrom('insert' as const, 'title' as const, 'body' as const, 'body' as const, 'delete' as const, 'revert' as const),
  page: fc.nat({ max: 5 }),
});

/** A request picked by position: mostly among those not merged yet, sometimes among all. */
const targetArb = fc.record({ pick: fc.nat(), any: fc.nat({ max: 4 }).map((n) => n === 0) });

const create = fc.tuple(fc.boolean(), fc.option(fc.string({ maxLength: 20 }), { nil: undefined })).map(([byEditor, subject]) => new CreateRequest(byEditor, subject));
const edit = fc.tuple(targetArb, fc.array(opArb, { minLength: 1, maxLength: 4 }), fc.boolean()).map(([target, ops, broken]) => new EditContent(target, ops, broken));
const merge = fc.tuple(targetArb, fc.nat({ max: 4 }).map((n) => n === 0)).map(([target, byEditor]) => new MergeRequest(target, byEditor));
const update = targetArb.map((target) => new UpdateRequest(target));

/** Requests are made, edited, merged and updated more often than the rest, so that their changes meet. */
const commands = [
  create,
  create,
  create,
  edit,
  edit,
  edit,
  edit,
  merge,
  merge,
  merge,
  update,
  update,
  fc.array(opArb, { minLength: 1, maxLength: 3 }).map((ops) => new SpaceEdit(ops)),
  fc.array(opArb, { minLength: 1, maxLength: 3 }).map((ops) => new SpaceEdit(ops)),
  fc.tuple(targetArb, fc.constantFrom(...SETTABLE)).map(([target, status]) => new SetStatus(target, status)),
  fc.tuple(targetArb, fc.oneof(fc.string({ maxLength: 100 }), fc.string({ minLength: 101, maxLength: 120 }))).map(([target, subject]) => new SetSubject(target, subject)),
  // Unlocking is likelier than locking: a space locked for long refuses most steps.
  fc.constantFrom(true, false, false).map((locked) => new SetLock(locked)),
];

async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'k' });
  const init = await platform.initialize({ title: 'Acme', email: 'owner@acme.test', name: 'Owner' });
  const editor = await platform.addUser({ organizationId: init.organizationId, email: 'editor@acme.test', name: 'Editor', role: 'edit' });
  const owner = platform.as(init.userId);
  const space = await owner.createSpace({ organizationId: init.organizationId, title: 'Docs' });
  const revision = space.revision as string;
  const model: Model = { locked: false, space: { content: new Map(), revision }, requests: [], seen: new Set([revision]) };
  const real: Real = { platform, clock, owner, editor: platform.as(editor.userId), spaceId: space.id, ids: [], inserted: 0, written: 0, pageIds: new Map() };
  await check(model, real);
  // The space starts with a few pages (request #1, merged), so that the requests' edits of them meet.
  for (const command of [new CreateRequest(false, 'Start'), new EditContent(FIRST, SEED_PAGES, false), new MergeRequest(FIRST, false)]) await command.run(model, real);
  return { model, real };
}

const FIRST = { pick: 0, any: true };
const SEED_PAGES: EditOp[] = [0, 1, 2, 3].map(() => ({ kind: 'insert', page: 0 }));

describe('change request lifecycle (model-based)', () => {
  it('keeps statuses, revisions, outdated, content and the space counts as the model says, through edits, merges and updates', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'max' }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS, examples: EXAMPLES.map((run): [Run] => [run]) },
    );
  }, 120_000);
});
