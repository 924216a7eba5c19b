import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import type { MemberRole, TeamRole } from '../../src/core/roles.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { outcome } from './outcome.js';
import { runs } from './runs.js';

/**
 * Team membership checked against a model (fast-check's musicPlayer pattern): random bulk updates
 * (add, remove, memberships; ids and e-mails in any case; overlaps), adding and removing one member,
 * members leaving and rejoining the organization, and the clock moving or not between steps. After
 * every step each team's member list (who, role, order), `team.members`, each member's `teams` count
 * and each member's list of teams must be what the model says.
 *
 * The model is plain data: who is in the organization, and per team a map user → {role, step added}.
 * Its rules are the specification's: a user in `remove` ends up out; `memberships` sets the role
 * (adding the user); a plain `add` keeps an existing role or makes a `member`; one entry that names
 * no member of the organization fails the whole request with 400 and changes nothing (PUT one names
 * its member in the path: 404). Lists are in
 * the order members were added (ties: by id, plain code-unit order).
 */

const NUM_RUNS = runs(100);
const USERS = 5;
const TEAMS = 2;
const TEAM_TITLES = ['Team ALPHA', 'Team Beta'];
const ORG_ROLES: (MemberRole | null)[] = ['read', 'edit', null, 'create', 'comment'];

interface Place {
  role: TeamRole;
  /** The clock tick at which the member joined the team. */
  tick: number;
}

interface Model {
  /** Whether user i is a member of the organization. */
  inOrg: boolean[];
  /** Per team: user index → place. */
  teams: Map<number, Place>[];
  /** How many times the clock moved. */
  tick: number;
}

interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  organizationId: string;
  owner: Api;
  teamIds: string[];
  users: { id: string; email: string }[];
}

/** How a command names a user: by id, by e-mail as stored, or by e-mail in upper case. */
type Form = 'id' | 'email' | 'EMAIL';
interface Ref {
  user: number;
  form: Form;
}

const ref = fc.record({ user: fc.nat({ max: USERS - 1 }), form: fc.constantFrom<Form>('id', 'email', 'EMAIL') });
const teamRole = fc.constantFrom<TeamRole>('owner', 'member');

function entry(real: Real, { user, form }: Ref): string {
  const { id, email } = real.users[user];
  return form === 'id' ? id : form === 'email' ? email : email.toUpperCase();
}


/** Moves the clock (or not) before a command acts, so that some steps tie on addedAt and some do not. */
function tickIf(advance: boolean, model: Model, real: Real) {
  if (!advance) return;
  model.tick++;
  real.clock.advance(1000);
}

const byTickThenId = (ids: (i: number) => string) => (a: [number, Place], b: [number, Place]) => {
  if (a[1].tick !== b[1].tick) return a[1].tick - b[1].tick;
  const [x, y] = [ids(a[0]), ids(b[0])];
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Compares everything observable about team membership with the model. */
async function verify(model: Model, real: Real) {
  const { owner, organizationId } = real;
  for (let t = 0; t < TEAMS; t++) {
    const teamId = real.teamIds[t];
    const expected = [...model.teams[t]].sort(byTickThenId((i) => real.users[i].id)).map(([i, place]) => [real.users[i].id, place.role]);
    const list = await owner.listTeamMembers({ organizationId, teamId, limit: 1000 });
    expect(list.items.map((item) => [item.organization.id, item.team.role]), `members of team ${t}`).toEqual(expected);
    expect(list.count).toBe(expected.length);
    expect((await owner.getTeam({ organizationId, teamId })).members, `team ${t} members count`).toBe(expected.length);
  }
  for (let i = 0; i < USERS; i++) {
    const userId = real.users[i].id;
    if (!model.inOrg[i]) {
      expect(await outcome(() => owner.getMember({ organizationId, userId }))).toBe(404);
      continue;
    }
    const places = model.teams
      .map((team, t) => [t, team.get(i)] as const)
      .filter((pair): pair is readonly [number, Place] => pair[1] !== undefined)
      .sort((a, b) => a[1].tick - b[1].tick || (real.teamIds[a[0]] < real.teamIds[b[0]] ? -1 : 1));
    expect((await owner.getMember({ organizationId, userId })).teams, `teams count of user ${i}`).toBe(places.length);
    const teams = await owner.listMemberTeams({ organizationId, userId, limit: 1000 });
    expect(teams.count).toBe(places.length);
    expect(
      teams.items.map((item) => [item.team.id, item.member.role]),
      `teams of user ${i}`,
    ).toEqual(places.map(([t, place]) => [real.teamIds[t], place.role]));
    // Team 0 is the only title with "ALPHA" in it, in any case.
    const alpha = await owner.listMemberTeams({ organizationId, userId, title: 'aLpHa' });
    expect(alpha.items.map((item) => item.team.id)).toEqual(places.filter(([t]) => t === 0).map(([t]) => real.teamIds[t]));
    expect(alpha.count).toBe(alpha.items.length);
  }
}

/** A bulk PUT of the team's members. `ghost` adds an entry that names nobody. */
class BulkUpdate implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly team: number,
    readonly add: Ref[],
    readonly remove: Ref[],
    readonly memberships: [Ref, TeamRole][],
    readonly ghost: 'none' | 'add' | 'remove' | 'memberships',
    readonly advance: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const memberships: Record<string, { role: TeamRole }> = {};
    for (const [target, role] of this.memberships) memberships[entry(real, target)] = { role };
    const add = this.add.map((target) => entry(real, target));
    const remove = this.remove.map((target) => entry(real, target));
    if (this.ghost === 'add') add.push('ghost@acme.test');
    if (this.ghost === 'remove') remove.push('no-such-user');
    if (this.ghost === 'memberships') memberships['nobody'] = { role: 'owner' };
    const result = await outcome(() =>
      real.owner.updateTeamMembers({ organizationId: real.organizationId, teamId: real.teamIds[this.team], add, remove, memberships }),
    );
    const named = [...this.add, ...this.remove, ...this.memberships.map(([target]) => target)];
    const valid = this.ghost === 'none' && named.every((target) => model.inOrg[target.user]);
    expect(result).toBe(valid ? 'ok' : 400);
    if (valid) {
      const team = model.teams[this.team];
      const removed = new Set(this.remove.map((target) => target.user));
      const roles = new Map(this.memberships.map(([target, role]) => [target.user, role]));
      for (const user of new Set([...this.add.map((target) => target.user), ...roles.keys()])) {
        if (removed.has(user)) continue;
        const place = team.get(user);
        const role = roles.get(user) ?? place?.role ?? 'member';
        team.set(user, { role, tick: place?.tick ?? model.tick });
      }
      for (const user of removed) team.delete(user);
    }
    await verify(model, real);
  }
  toString() {
    const refs = (list: Ref[]) => list.map((r) => `${r.user}:${r.form}`).join(',');
    const roles = this.memberships.map(([r, role]) => `${r.user}:${r.form}=${role}`).join(',');
    return `bulk(team ${this.team}, add [${refs(this.add)}], remove [${refs(this.remove)}], memberships {${roles}}, ghost ${this.ghost}${this.advance ? ', tick' : ''})`;
  }
}

/** PUT one member, with or without a role. */
class PutOne implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly team: number,
    readonly user: number,
    readonly role: TeamRole | undefined,
    readonly advance: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    tickIf(this.advance, model, real);
    const { id } = real.users[this.user];
    const result = await outcome(() =>
      real.owner.addTeamMember({ organizationId: real.organizationId, teamId: real.teamIds[this.team], userId: id, role: this.role }),
    );
    expect(result).toBe(model.inOrg[this.user] ? 'ok' : 404);
    if (model.inOrg[this.user]) {
      const team = model.teams[this.team];
      const place = team.get(this.user);
      team.set(this.user, { role: this.role ?? place?.role ?? 'member', tick: place?.tick ?? model.tick });
    }
    await verify(model, real);
  }
  toString() {
    return `put(team ${this.team}, user ${this.user}, ${this.role ?? 'no role'}${this.advance ? ', tick' : ''})`;
  }
}

/** DELETE one member, by the organization's admin or by the member itself. */
class DeleteOne implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly team: number,
    readonly user: number,
    readonly self: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { id } = real.users[this.user];
    const actor = this.self ? real.platform.as(id) : real.owner;
    const result = await outcome(() => actor.removeTeamMember({ organizationId: real.organizationId, teamId: real.teamIds[this.team], userId: id }));
    const team = model.teams[this.team];
    // Someone who left the organization cannot act in it (404); removing someone not in the team is a 404.
    expect(result).toBe(team.has(this.user) ? 'ok' : 404);
    team.delete(this.user);
    await verify(model, real);
  }
  toString() {
    return `delete(team ${this.team}, user ${this.user}${this.self ? ', by itself' : ''})`;
  }
}

/** A member leaves the organization (removed by the admin or leaving): it leaves every team. */
class LeaveOrganization implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly user: number,
    readonly self: boolean,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { id } = real.users[this.user];
    const actor = this.self ? real.platform.as(id) : real.owner;
    const result = await outcome(() => actor.removeMember({ organizationId: real.organizationId, userId: id }));
    expect(result).toBe(model.inOrg[this.user] ? 'ok' : 404);
    model.inOrg[this.user] = false;
    for (const team of model.teams) team.delete(this.user);
    await verify(model, real);
  }
  toString() {
    return `leave(user ${this.user}${this.self ? ', by itself' : ''})`;
  }
}

/** A user (back) in the organization: joining does not bring old team places back. */
class JoinOrganization implements fc.AsyncCommand<Model, Real> {
  constructor(readonly user: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const { email } = real.users[this.user];
    await real.platform.addUser({ organizationId: real.organizationId, email, name: `User ${this.user}`, role: ORG_ROLES[this.user] });
    model.inOrg[this.user] = true;
    await verify(model, real);
  }
  toString() {
    return `join(user ${this.user})`;
  }
}

const team = fc.nat({ max: TEAMS - 1 });
const user = fc.nat({ max: USERS - 1 });
const refs = fc.array(ref, { maxLength: 4 });

const commands = [
  fc
    .record({
      team,
      add: refs,
      remove: fc.array(ref, { maxLength: 3 }),
      // One role per user: two entries for one user with different roles would be ambiguous.
      memberships: fc.uniqueArray(fc.tuple(ref, teamRole), { maxLength: 3, selector: ([target]) => target.user }),
      ghost: fc.constantFrom<BulkUpdate['ghost']>('none', 'none', 'none', 'none', 'add', 'remove', 'memberships'),
      advance: fc.boolean(),
    })
    .map((c) => new BulkUpdate(c.team, c.add, c.remove, c.memberships, c.ghost, c.advance)),
  fc.tuple(team, user, fc.option(teamRole, { nil: undefined, freq: 2 }), fc.boolean()).map(([t, u, role, advance]) => new PutOne(t, u, role, advance)),
  fc.tuple(team, user, fc.boolean()).map(([t, u, self]) => new DeleteOne(t, u, self)),
  fc.tuple(user, fc.boolean()).map(([u, self]) => new LeaveOrganization(u, self)),
  user.map((u) => new JoinOrganization(u)),
];

async function setup(): Promise<{ model: Model; real: Real }> {
  const clock = manualClock('2026-03-01T10:00:00.000Z');
  const platform = createPlatform({ store: createMemoryStore(), clock, signingKey: 'property-key' });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  const owner = platform.as(init.userId);
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const email = `user${i}@acme.test`;
    const created = await platform.addUser({ organizationId: init.organizationId, email: `User${i}@Acme.test`, name: `User ${i}`, role: ORG_ROLES[i] });
    users.push({ id: created.userId, email });
  }
  const teamIds = [];
  for (let t = 0; t < TEAMS; t++) teamIds.push((await owner.createTeam({ organizationId: init.organizationId, title: TEAM_TITLES[t] })).id);
  return {
    model: { inOrg: users.map(() => true), teams: teamIds.map(() => new Map()), tick: 0 },
    real: { platform, clock, organizationId: init.organizationId, owner, teamIds, users },
  };
}

describe('team membership against a model', () => {
  it('keeps member lists, roles, order and counts as the model says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 30 }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
