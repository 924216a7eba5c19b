import fc from 'fast-check';
import { describe, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { AddGroup, AddSectionToGroup, DeleteGroup, MoveGroup, RemoveSectionFromGroup } from './site-structure/group-commands.js';
import type { Model, Real } from './site-structure/model.js';
import { AddSection, DeleteSection, MoveSection, SetDefaultSection } from './site-structure/section-commands.js';
import { AddSiteSpace, DeleteSiteSpace, MoveSiteSpace, SetDefaultSiteSpace } from './site-structure/site-space-commands.js';
import { runs } from './runs.js';

/**
 * A site's structure against a model (fast-check's musicPlayer pattern, see site-structure/model.ts):
 * random adds, moves and deletes of sections, section groups and site spaces, group membership and
 * default choices. After every step the published structure, the section, site space and group lists
 * and the site's count must be what the plain-array model says. Commands pick their targets by
 * position, so every command applies to whatever exists and shrinks well.
 */

const NUM_RUNS = runs(100);
const SPACES = 4;

const n = fc.nat({ max: 20 });
const mode = fc.constantFrom<'end' | 'before' | 'after'>('end', 'before', 'after');

const commands = [
  fc.tuple(n, fc.option(n, { nil: null })).map(([space, section]) => new AddSiteSpace(space, section)),
  fc.tuple(n, mode, n).map(([siteSpace, m, target]) => new MoveSiteSpace(siteSpace, m, target)),
  n.map((siteSpace) => new DeleteSiteSpace(siteSpace)),
  fc.tuple(n, fc.boolean()).map(([siteSpace, viaSite]) => new SetDefaultSiteSpace(siteSpace, viaSite)),
  n.map((space) => new AddSection(space)),
  fc.tuple(n, mode, n).map(([section, m, target]) => new MoveSection(section, m, target)),
  n.map((section) => new DeleteSection(section)),
  n.map((section) => new SetDefaultSection(section)),
  fc.array(n, { maxLength: 3 }).map((sections) => new AddGroup(sections)),
  fc.tuple(n, mode, n).map(([group, m, target]) => new MoveGroup(group, m, target)),
  n.map((group) => new DeleteGroup(group)),
  fc.tuple(n, n).map(([section, group]) => new AddSectionToGroup(section, group)),
  fc.tuple(n, n).map(([group, section]) => new RemoveSectionFromGroup(group, section)),
];

async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'property-key' });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  const api = platform.as(init.userId);
  const organizationId = init.organizationId;
  const spaces = [];
  for (let i = 0; i < SPACES; i++) spaces.push((await api.createSpace({ organizationId, title: `Space ${i}` })).id);
  const site = await api.createSite({ organizationId, title: 'Docs' });
  return {
    model: { root: [], top: [], groups: new Map(), sections: new Map(), spaceOf: new Map() },
    real: { platform, clock, api, organizationId, siteId: site.id, spaces },
  };
}

describe('site structure against a model', () => {
  it('keeps the published order, the lists, the defaults and the count as the plain-array model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: 'max' }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
