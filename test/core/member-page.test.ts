import { expect, it } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { TABLES } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { countingStore } from '../store/counting-store.js';

/**
 * A page of members (presentMembers) reads each member's places in teams only in an organization that has
 * teams: the organization's count of teams is read with the page, and with none there is nothing to list.
 */
it('lists no places for a page of an organization without teams, and counts them once it has some', async () => {
  const counting = countingStore(createMemoryStore());
  const platform = createPlatform({ store: counting.store });
  const { organizationId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
  const added = [];
  for (let i = 0; i < 5; i++) added.push(await platform.addUser({ organizationId, email: `m${i}@acme.test`, name: `Member ${i}`, role: 'read' }));
  const { createTeam, addTeamMember } = platform.operations;
  const api = await platform.withToken(token);
  const page = async () => {
    counting.reset();
    const { items } = await api.listMembers({ organizationId });
    return new Map(items.map((member) => [member.id, member.teams]));
  };

  const without = await page();
  expect([...without.values()]).toEqual([0, 0, 0, 0, 0, 0]);
  expect(counting.listsOf(TABLES.teamMembers)).toBe(0);

  const team = await platform.runWithToken(createTeam, token, { organizationId, title: 'Writers' });
  await platform.runWithToken(addTeamMember, token, { organizationId, teamId: team.id, userId: added[2].userId });
  const withTeam = await page();
  expect(withTeam.get(added[2].userId)).toBe(1);
  expect([...withTeam.values()].filter((teams) => teams > 0)).toHaveLength(1);
  expect(counting.listsOf(TABLES.teamMembers)).toBeGreaterThanOrEqual(6);
});
