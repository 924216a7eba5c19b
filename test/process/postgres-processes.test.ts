import { afterEach, expect, test } from 'vitest';
import type { TeamRole } from '../../src/core/roles.js';
import { api, listAll, type Call, type Reply } from './api.js';
import { describePostgres, dropDatabases, isConnectionError, startProcesses } from './postgres-servers.js';
import { random } from './random.js';
import { cleanUp, serve } from './spawn.js';

/**
 * Issue 16: three separate `serve` processes on one PostgreSQL database. Concurrent writers send each
 * request to a process picked at random, and the outcome is checked against a model of the writes that
 * were acknowledged (2xx). Each acknowledged write is also read back at once through another process.
 */

/** The seed of the process picks and the write mix; PG_PROCESSES_SEED replays a failing run. */
const SEED = Number(process.env.PG_PROCESSES_SEED ?? Date.now() % 1_000_000);
/** Server processes per test. */
const PROCESSES = 3;
/** Concurrent writers per test. */
const WRITERS = 8;

afterEach(async () => {
  await cleanUp();
  await dropDatabases();
});

/** Picks processes at random: `any()` for a write, `otherThan(i)` for reading it back elsewhere. */
function picker(next: () => number) {
  return {
    any: () => Math.floor(next() * PROCESSES),
    otherThan: (i: number) => (i + 1 + Math.floor(next() * (PROCESSES - 1))) % PROCESSES,
  };
}

/** Expects a status and returns the body. */
function ok(reply: Reply, status: number, what: string) {
  expect(reply.status, `${what}: ${JSON.stringify(reply.body)}`).toBe(status);
  return reply.body;
}

/** Runs `count` writers at once. */
const writers = (count: number, writer: (w: number) => Promise<void>) => Promise.all(Array.from({ length: count }, (_, w) => writer(w)));

const sorted = <T>(values: Iterable<T>) => [...values].sort();
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Creates a space through one process. */
async function createSpace(call: Call, organizationId: string, title: string): Promise<string> {
  return ok(await call('POST', `/v1/orgs/${organizationId}/spaces`, { title }), 201, 'create space').id;
}

describePostgres('three serve processes on one PostgreSQL database', () => {
  test(`bulk team-member updates: members, team.members and member.teams are what the acknowledged updates imply (seed ${SEED})`, { timeout: 60_000 }, async () => {
    const next = random(SEED);
    const { any, otherThan } = picker(next);
    const p = await startProcesses('teams', PROCESSES, ['Ann', 'Ben', 'Cat', 'Dan']);
    const org = `/v1/orgs/${p.organizationId}`;
    const members = (team: string) => `${org}/teams/${team}/members`;
    const teams: string[] = [];
    for (const [i, call] of p.calls.entries()) teams.push(ok(await call('PUT', `${org}/teams`, { title: `Team ${i}` }), 201, 'create team').id);
    const rolesOf = (items: any[]) => new Map<string, TeamRole>(items.map((item) => [item.organization.id, item.team.role]));
    const pair = (team: string, user: string) => `${team} ${user}`;

    // Two writers per team, each sending bulk updates through random processes. Each writer owns one
    // user: it alone adds, removes and re-roles that user in its team, so the pair ends as the writer's
    // last acknowledged update left it (`owned`). Both writers also add and remove the two shared users
    // (never a role): a shared pair ends as the update that came after every other one on it, where one
    // did (acknowledged before any other was sent). Meanwhile each team's member count and each user's
    // team count are changed by several writers through several processes at once. A lost update, or two
    // adds of one pair both counted, shows as a pair or a count that differs from the model.
    const owned = new Map<string, TeamRole>();
    const sharedUpdates = new Map<string, { sent: number; acknowledged: number; member: boolean }[]>();
    const [ann, ben, ...shared] = p.userIds as [string, string, ...string[]];
    const ROUNDS = 8;
    const writer = async (team: string, own: string) => {
      for (let round = 0; round < ROUNDS; round++) {
        const body = { add: [] as string[], remove: [] as string[], memberships: {} as Record<string, { role: TeamRole }> };
        let ownAfter = owned.get(pair(team, own));
        const choice = next();
        if (choice < 0.35) {
          body.add.push(own);
          ownAfter ??= 'member';
        } else if (choice < 0.6) {
          body.remove.push(own);
          ownAfter = undefined;
        } else if (choice < 0.85) {
          ownAfter = next() < 0.5 ? 'owner' : 'member';
          body.memberships[own] = { role: ownAfter };
        }
        const touched = new Map<string, boolean>();
        for (const user of shared) {
          const pick = next();
          if (pick < 0.35) body.add.push(user);
          else if (pick < 0.6) body.remove.push(user);
          else continue;
          touched.set(user, pick < 0.35);
        }
        const via = any();
        const sent = performance.now();
        ok(await p.calls[via]('PUT', members(team), body), 204, `update of team ${team} through process ${via}`);
        const acknowledged = performance.now();
        if (ownAfter) owned.set(pair(team, own), ownAfter);
        else owned.delete(pair(team, own));
        for (const [user, member] of touched) {
          const updates = sharedUpdates.get(pair(team, user)) ?? [];
          sharedUpdates.set(pair(team, user), [...updates, { sent, acknowledged, member }]);
        }
        // Read your writes: at once, another process shows the owned pair as acknowledged.
        const reader = otherThan(via);
        const roster = rolesOf(await listAll(p.calls[reader], members(team)));
        expect(roster.get(own), `${own} in ${team}, read through process ${reader} after process ${via} acknowledged`).toBe(ownAfter);
      }
    };
    await Promise.all(teams.flatMap((team) => [writer(team, ann), writer(team, ben)]));

    /** Whether a shared pair is a member, where its acknowledged updates say (see above); undefined where they do not. */
    const sharedMember = (team: string, user: string): boolean | undefined => {
      const updates = sharedUpdates.get(pair(team, user)) ?? [];
      const last = updates.reduce<(typeof updates)[number] | undefined>((latest, update) => (latest && latest.sent > update.sent ? latest : update), undefined);
      if (!last) return false;
      return updates.every((update) => update === last || update.acknowledged < last.sent) ? last.member : undefined;
    };
    const settled = teams.flatMap((team) => shared.filter((user) => sharedMember(team, user) !== undefined));
    expect(settled.length, 'shared pairs whose last update is known').toBeGreaterThan(0);

    let first: Map<string, Map<string, TeamRole>> | undefined;
    for (const [i, call] of p.calls.entries()) {
      const rosters = new Map<string, Map<string, TeamRole>>();
      const listed = new Map((await listAll(call, `${org}/teams`)).map((team) => [team.id, team.members]));
      for (const team of teams) {
        const roster = rolesOf(await listAll(call, members(team)));
        rosters.set(team, roster);
        for (const user of [ann, ben]) expect(roster.get(user), `${user} in ${team} through process ${i}`).toBe(owned.get(pair(team, user)));
        for (const user of shared) {
          const member = sharedMember(team, user);
          if (member !== undefined) expect(roster.has(user), `shared ${user} in ${team} through process ${i}`).toBe(member);
          if (roster.has(user)) expect(roster.get(user)).toBe('member');
        }
        expect(ok(await call('GET', `${org}/teams/${team}`), 200, 'get team').members, `team.members of ${team} through process ${i}`).toBe(roster.size);
        expect(listed.get(team), `members of ${team} in the team list of process ${i}`).toBe(roster.size);
      }
      for (const user of p.userIds) {
        const teamsOfUser = teams.filter((team) => rosters.get(team)!.has(user)).length;
        expect(ok(await call('GET', `${org}/members/${user}`), 200, 'get member').teams, `member.teams of ${user} through process ${i}`).toBe(teamsOfUser);
      }
      if (first) expect(rosters, `the rosters through process ${i}`).toEqual(first);
      first = rosters;
    }
  });

  test(`change requests created at once through every process: numbers 1..n, each once, listed by every process (seed ${SEED})`, { timeout: 60_000 }, async () => {
    const { any, otherThan } = picker(random(SEED));
    const p = await startProcesses('numbers', PROCESSES);
    const space = await createSpace(p.calls[0], p.organizationId, 'Numbers');
    const changeRequests = `/v1/spaces/${space}/change-requests`;
    const created: { id: string; number: number }[] = [];
    const PER_WRITER = 5;
    await writers(WRITERS, async (w) => {
      for (let n = 0; n < PER_WRITER; n++) {
        const via = any();
        const { id, number } = ok(await p.calls[via]('POST', changeRequests, { subject: `w${w} n${n}` }), 201, `create through process ${via}`);
        created.push({ id, number });
        const reader = otherThan(via);
        expect(ok(await p.calls[reader]('GET', `${changeRequests}/${id}`), 200, `read back through process ${reader}`).number).toBe(number);
      }
    });

    // Every request was acknowledged, so there are no gaps: a duplicate number would leave one missing.
    expect(created.map((request) => request.number).sort((a, b) => a - b)).toEqual(range(WRITERS * PER_WRITER));
    for (const [i, call] of p.calls.entries()) {
      const listed = await listAll(call, `${changeRequests}?status=draft`);
      expect(sorted(listed.map((request) => request.id)), `the drafts listed by process ${i}`).toEqual(sorted(created.map((request) => request.id)));
      const counts = ok(await call('GET', `/v1/spaces/${space}`), 200, 'get space');
      expect([counts.changeRequests, counts.changeRequestsDraft], `space counts through process ${i}`).toEqual([created.length, created.length]);
    }
    for (const [k, { id, number }] of created.entries()) {
      expect(ok(await p.calls[k % PROCESSES]('GET', `${changeRequests}/${number}`), 200, `get number ${number}`).id).toBe(id);
    }
  });

  test(`comments posted at once through every process: space.comments counts them, every process lists them (seed ${SEED})`, { timeout: 60_000 }, async () => {
    const { any, otherThan } = picker(random(SEED));
    const p = await startProcesses('comments', PROCESSES);
    const space = await createSpace(p.calls[0], p.organizationId, 'Comments');
    const comments = `/v1/spaces/${space}/comments`;
    const posted: string[] = [];
    const PER_WRITER = 5;
    await writers(WRITERS, async (w) => {
      for (let n = 0; n < PER_WRITER; n++) {
        const via = any();
        const { id } = ok(await p.calls[via]('POST', comments, { body: { markdown: `w${w} n${n}` } }), 200, `post through process ${via}`);
        posted.push(id);
        const reader = otherThan(via);
        expect(ok(await p.calls[reader]('GET', `${comments}/${id}`), 200, `read back through process ${reader}`).body).toEqual({ markdown: `w${w} n${n}\n` });
      }
    });

    expect(new Set(posted).size).toBe(WRITERS * PER_WRITER);
    for (const [i, call] of p.calls.entries()) {
      expect(sorted((await listAll(call, comments)).map((comment) => comment.id)), `comments listed by process ${i}`).toEqual(sorted(posted));
      expect(ok(await call('GET', `/v1/spaces/${space}`), 200, 'get space').comments, `space.comments through process ${i}`).toBe(posted.length);
    }
  });

  test(`section moves at once through every process: one order everywhere, a permutation, consistent with the acknowledged moves (seed ${SEED})`, { timeout: 60_000 }, async () => {
    const next = random(SEED);
    const { any, otherThan } = picker(next);
    const p = await startProcesses('moves', PROCESSES);
    const org = `/v1/orgs/${p.organizationId}`;
    const spaces = await Promise.all(Array.from({ length: 8 }, (_, i) => createSpace(p.calls[i % PROCESSES], p.organizationId, `Part ${i}`)));
    const site = ok(await p.calls[1]('POST', `${org}/sites`, { title: 'Moves' }), 201, 'create site').id;
    const sectionsPath = `${org}/sites/${site}/sections`;
    const sections: string[] = [];
    for (const [i, spaceId] of spaces.entries()) sections.push(ok(await p.calls[i % PROCESSES]('POST', sectionsPath, { spaceId }), 201, 'add section').id);
    const order = async (call: Call) => (await listAll(call, sectionsPath)).map((section) => section.id as string);
    const move = (via: number, section: string, body: unknown) => p.calls[via]('POST', `${sectionsPath}/${section}/move`, body);

    // First, moves to the end, whose outcome the model knows: the sections not moved keep their order
    // and come first, then the moved ones, and a move acknowledged before another was sent comes before it.
    const before = await order(p.calls[2]);
    expect(sorted(before)).toEqual(sorted(sections));
    // The last section stays, so that no move to the end finds its section there already.
    const candidates = before.slice(0, -1);
    const moved = candidates.filter(() => next() < 0.7);
    const unmoved = before.filter((section) => !moved.includes(section));
    const timing = new Map<string, { sent: number; acknowledged: number }>();
    const MOVERS = 3;
    await writers(MOVERS, async (w) => {
      for (const section of moved.filter((_, k) => k % MOVERS === w)) {
        const via = any();
        const sent = performance.now();
        ok(await move(via, section, {}), 200, `move ${section} to the end through process ${via}`);
        const acknowledged = performance.now();
        timing.set(section, { sent, acknowledged });
        // Read your writes: every section acknowledged before this move was sent is before it, every unmoved one too.
        const reader = otherThan(via);
        const seen = await order(p.calls[reader]);
        const precede = [...unmoved, ...[...timing].filter(([, other]) => other.acknowledged < sent).map(([id]) => id)];
        for (const earlier of precede) expect(seen.indexOf(earlier), `${earlier} before ${section} through process ${reader}`).toBeLessThan(seen.indexOf(section));
      }
    });
    const afterEnd = await order(p.calls[0]);
    expect(afterEnd.slice(0, unmoved.length)).toEqual(unmoved);
    expect(sorted(afterEnd.slice(unmoved.length))).toEqual(sorted(moved));
    for (const [a, timesA] of timing) {
      for (const [b, timesB] of timing) {
        if (timesA.acknowledged < timesB.sent) expect(afterEnd.indexOf(a), `${a} was acknowledged before ${b} was sent`).toBeLessThan(afterEnd.indexOf(b));
      }
    }

    // Then moves before and after random sections. Two moves that had computed their key from the same
    // state would share it: a later move between them fails to make a key (500), which this phase would meet.
    const reference = (siteSection: string) => ({ type: 'site-section', siteSection });
    await writers(WRITERS, async () => {
      for (let n = 0; n < 4; n++) {
        const section = sections[Math.floor(next() * sections.length)]!;
        const others = sections.filter((other) => other !== section);
        const target = others[Math.floor(next() * others.length)]!;
        const kind = next();
        const body = kind < 0.45 ? { position: { after: reference(target) } } : kind < 0.9 ? { position: { before: reference(target) } } : {};
        const via = any();
        const reply = await move(via, section, body);
        // 409: the section is already there, as another writer's move just left it.
        expect([200, 409], `move ${section} ${JSON.stringify(body)} through process ${via}: ${JSON.stringify(reply.body)}`).toContain(reply.status);
      }
    });
    const orders = await Promise.all(p.calls.map(order));
    expect(sorted(orders[0]!), 'a permutation of the sections').toEqual(sorted(sections));
    for (const other of orders.slice(1)) expect(other).toEqual(orders[0]);
  });

  test(`no lost update: reactions added at once to one comment through every process all stay (seed ${SEED})`, { timeout: 60_000 }, async () => {
    const { any, otherThan } = picker(random(SEED));
    const p = await startProcesses('reactions', PROCESSES);
    const space = await createSpace(p.calls[0], p.organizationId, 'Reactions');
    const comment = `/v1/spaces/${space}/comments/${ok(await p.calls[1]('POST', `/v1/spaces/${space}/comments`, { body: { markdown: 'React' } }), 200, 'post comment').id}`;
    const emojisOf = (body: any) => body.reactions.map((reaction: any) => reaction.emoji as string);
    // Each update reads the comment's reactions and writes them back with one more: two that read the
    // same reactions and both committed would lose one emoji.
    const PER_WRITER = 3;
    const emojis = Array.from({ length: WRITERS * PER_WRITER }, (_, i) => String.fromCodePoint(0x1f600 + i));
    await writers(WRITERS, async (w) => {
      for (const emoji of emojis.filter((_, i) => i % WRITERS === w)) {
        const via = any();
        const updated = ok(await p.calls[via]('PUT', comment, { addedReactions: [emoji] }), 200, `react ${emoji} through process ${via}`);
        expect(emojisOf(updated)).toContain(emoji);
        const reader = otherThan(via);
        expect(emojisOf(ok(await p.calls[reader]('GET', comment), 200, 'read back')), `${emoji} through process ${reader}`).toContain(emoji);
      }
    });
    for (const [i, call] of p.calls.entries()) {
      const { reactions } = ok(await call('GET', comment), 200, 'get comment');
      expect(sorted(emojisOf({ reactions })), `reactions through process ${i}`).toEqual(sorted(emojis));
      expect(reactions.map((reaction: any) => reaction.count)).toEqual(emojis.map(() => 1));
    }
  });

  test(`kill -9 of one process mid-burst: the others keep answering, and every acknowledged write is read through them and its restart (seed ${SEED})`, { timeout: 90_000 }, async () => {
    const next = random(SEED);
    const { any } = picker(next);
    const p = await startProcesses('kill', PROCESSES);
    const org = `/v1/orgs/${p.organizationId}`;
    const space = await createSpace(p.calls[0], p.organizationId, 'Burst');
    const victim = Math.floor(next() * PROCESSES);
    const killAfter = 10 + Math.floor(next() * 30);
    const acked = { teams: new Map<string, string>(), comments: new Set<string>(), changeRequests: new Map<string, number>() };
    let acks = 0;
    let acksAfterKill = 0;
    let killed = false;
    let refused = 0;
    // Change-request creations the killed process never answered: each may have drawn a number and died.
    let unansweredChangeRequests = 0;

    const PER_WRITER = 15;
    await writers(WRITERS, async (w) => {
      for (let n = 0; n < PER_WRITER; n++) {
        const via = any();
        const kind = next();
        const call = p.calls[via]!;
        try {
          if (kind < 0.4) {
            const title = `w${w} n${n}`;
            acked.teams.set(ok(await call('PUT', `${org}/teams`, { title }), 201, 'create team').id, title);
          } else if (kind < 0.7) {
            acked.comments.add(ok(await call('POST', `/v1/spaces/${space}/comments`, { body: { markdown: `w${w} n${n}` } }), 200, 'post comment').id);
          } else {
            const { id, number } = ok(await call('POST', `/v1/spaces/${space}/change-requests`, {}), 201, 'create change request');
            acked.changeRequests.set(id, number);
          }
        } catch (error) {
          // The killed process alone may fail, and only for want of a connection: no 5xx, no hang.
          if (via === victim && killed && isConnectionError(error)) {
            refused++;
            if (kind >= 0.7) unansweredChangeRequests++;
            continue;
          }
          throw error;
        }
        if (killed) acksAfterKill++;
        if (++acks === killAfter) {
          killed = true;
          p.servers[victim]!.child.signal('SIGKILL');
        }
      }
    });
    expect(await p.servers[victim]!.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acksAfterKill, 'writes went on through the other processes').toBeGreaterThan(0);

    // Started again at once on the same database: PostgreSQL holds no lock of the dead process.
    const restarted = await serve(p.url);
    const calls = p.calls.map((call, i) => (i === victim ? api(restarted.url, p.token) : call));
    for (const [i, call] of calls.entries()) {
      const what = `through ${i === victim ? 'the restarted process' : `process ${i}`}`;
      const teams = new Map((await listAll(call, `${org}/teams`)).map((team) => [team.id, team.title]));
      for (const [id, title] of acked.teams) expect(teams.get(id), `acknowledged team ${id} ${what}`).toBe(title);
      const comments = new Set((await listAll(call, `/v1/spaces/${space}/comments`)).map((comment) => comment.id));
      for (const id of acked.comments) expect(comments.has(id), `acknowledged comment ${id} ${what}`).toBe(true);
      // A write in flight when the process died may have committed without an answer: it is there too,
      // with its number. Numbers are given once each; one drawn by a creation that died uncommitted is
      // skipped, as the Store contract says (nextNumber), so there are at most as many gaps as creations
      // that got no answer.
      const requests = await listAll(call, `/v1/spaces/${space}/change-requests?status=draft`);
      const numbers = new Map(requests.map((request) => [request.id, request.number]));
      for (const [id, number] of acked.changeRequests) expect(numbers.get(id), `acknowledged change request ${id} ${what}`).toBe(number);
      const sorted = [...numbers.values()].sort((a, b) => a - b);
      expect(new Set(sorted).size, `change-request numbers given once ${what}`).toBe(sorted.length);
      expect(sorted.every((number) => number >= 1), `numbers from 1 ${what}`).toBe(true);
      expect((sorted.at(-1) ?? 0) - sorted.length, `numbers skipped ${what}`).toBeLessThanOrEqual(unansweredChangeRequests);
      const counts = ok(await call('GET', `/v1/spaces/${space}`), 200, 'get space');
      expect([counts.comments, counts.changeRequests], `space counts ${what}`).toEqual([comments.size, requests.length]);
    }
    process.stderr.write(`kill -9 test: ${acks} writes acknowledged (${acksAfterKill} after the kill), ${refused} refused by the killed process\n`);
  });
});
