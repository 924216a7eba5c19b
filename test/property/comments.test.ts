import fc from 'fast-check';
import { describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { DeleteComment, PostComment, SetResolved } from './comments/comment-commands.js';
import { ROLES, type Model, type Place, type Real } from './comments/model.js';
import { DeleteReply, PostReply, React } from './comments/reply-commands.js';
import { runs } from './runs.js';

/**
 * Discussions against a model (fast-check's musicPlayer pattern, see comments/model.ts): random sequences
 * of posting, replying, reacting, resolving, reopening and deleting by users of every kind, on a space and
 * on one of its change requests, with the clock moving or not between steps. After every step each list
 * filter (status, page, author, together; both orders), `space.comments`, `changeRequest.comments`, each
 * comment's status, resolution, replies count, thread, reactions and permissions must be what the model
 * says. It runs in-process through the platform's operations on the memory store.
 */

const NUM_RUNS = runs(40);

const user = fc.nat({ max: ROLES.length - 1 });
const n = fc.nat({ max: 30 });
const place = fc.constantFrom<Place>(0, 1);

const commands = [
  fc.tuple(user, place, fc.option(fc.nat({ max: 1 }), { nil: null }), fc.boolean()).map(([u, p, page, advance]) => new PostComment(u, p, page, advance)),
  fc.tuple(user, n, fc.boolean()).map(([u, comment, advance]) => new PostReply(u, comment, advance)),
  fc.tuple(user, n, fc.nat({ max: 2 }), fc.boolean(), fc.boolean()).map(([u, target, emoji, add, advance]) => new React(u, target, emoji, add, advance)),
  fc.tuple(user, n, fc.boolean(), fc.boolean()).map(([u, comment, resolved, advance]) => new SetResolved(u, comment, resolved, advance)),
  fc.tuple(user, n).map(([u, comment]) => new DeleteComment(u, comment)),
  fc.tuple(user, n).map(([u, reply]) => new DeleteReply(u, reply)),
];

/** A space with two pages (authored in a change request and merged), and an open change request made after. */
async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'property-key' });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  const users = [init.userId];
  for (const [i, role] of ROLES.entries()) {
    if (i === 0) continue;
    users.push((await platform.addUser({ organizationId: init.organizationId, email: `user${i}@acme.test`, name: `User ${i}`, role })).userId);
  }
  const owner = platform.as(init.userId);
  const spaceId = (await owner.createSpace({ organizationId: init.organizationId, title: 'Discussed' })).id;
  const authoring = await owner.createChangeRequest({ spaceId, subject: 'Pages' });
  const authored = await owner.updateChangeRequestContent({
    spaceId,
    changeRequestId: authoring.id,
    compat: false,
    changes: ['One', 'Two'].map((title) => ({ operation: 'insert_page' as const, title, document: { markdown: `Page ${title}.` } })),
  });
  if (!('changes' in authored)) throw new Error('expected the compat=false answer');
  const pages = authored.changes.flatMap((change) => (change.object === 'created_page' ? [change.page.id] : []));
  await owner.mergeChangeRequest({ spaceId, changeRequestId: authoring.id });
  const request = await owner.createChangeRequest({ spaceId, subject: 'Discussed change' });
  return {
    model: { comments: [], tick: 0 },
    real: { platform, clock, spaceId, changeRequestId: request.id, pages, users, apis: users.map((id) => platform.as(id)) },
  };
}

describe('comments against a model', () => {
  it('keeps every count, list filter, thread, reaction and permission as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30, size: 'max' }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  }, 240_000);
});
