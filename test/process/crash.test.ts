import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { api, listAll, type Call } from './api.js';
import { random } from './random.js';
import { cleanUp, runCli, serve, tempDir } from './spawn.js';

afterEach(cleanUp);

/** How many times the server is killed; CRASH_ITERATIONS raises it for a longer soak. */
const ITERATIONS = Math.max(10, Number(process.env.CRASH_ITERATIONS ?? 10));
/** The seed of the kill moments and the write mix; CRASH_SEED replays a failing run. */
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Concurrent writers per burst. */
const WRITERS = 12;

/** The writes the server acknowledged with a 2xx, across every run of the server. */
interface Acknowledged {
  /** Team id → title. */
  teams: Map<string, string>;
  /** Teams whose members were set to include the second user. */
  memberships: Set<string>;
  /** The titles the organization may have now: after an acknowledged rename, only titles sent since. */
  titles: Set<string>;
}

/** One run's writes: what was sent and what was acknowledged, until the connection breaks. */
async function burst(call: Call, organizationId: string, memberId: string, acked: Acknowledged, iteration: number, next: () => number, onAck: () => void) {
  const sentTitles: string[] = [];
  let renamed = false;
  const newTeams: string[] = [];
  const failures: string[] = [];
  const writer = async (w: number) => {
    for (let n = 0; ; n++) {
      const pick = next();
      const known = [...acked.teams.keys()];
      try {
        if (pick < 0.6 || known.length === 0) {
          const title = `r${iteration} w${w} n${n}`;
          const reply = await call('PUT', `/v1/orgs/${organizationId}/teams`, { title });
          if (reply.status !== 201) failures.push(`create team: ${reply.status} ${JSON.stringify(reply.body)}`);
          else {
            acked.teams.set(reply.body.id, title);
            newTeams.push(reply.body.id);
          }
        } else if (pick < 0.8) {
          const title = `Org r${iteration} w${w} n${n}`;
          sentTitles.push(title);
          const reply = await call('PATCH', `/v1/orgs/${organizationId}`, { title });
          if (reply.status !== 200) failures.push(`rename: ${reply.status} ${JSON.stringify(reply.body)}`);
          else renamed = true;
        } else {
          const teamId = known[Math.floor(next() * known.length)]!;
          const reply = await call('PUT', `/v1/orgs/${organizationId}/teams/${teamId}/members`, { add: [memberId] });
          if (reply.status !== 204) failures.push(`members: ${reply.status} ${JSON.stringify(reply.body)}`);
          else acked.memberships.add(teamId);
        }
        onAck();
      } catch {
        return; // the server is gone: this write is unacknowledged, whatever became of it
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  // Writes apply in order; every rename sent in this run came after the acknowledged one or before it.
  acked.titles = new Set(renamed ? sentTitles : [...acked.titles, ...sentTitles]);
  return { failures, newTeams };
}

/** Checks through a fresh server that every acknowledged write is there. */
async function verify(call: Call, organizationId: string, memberId: string, acked: Acknowledged, newTeams: string[]) {
  for (const teamId of newTeams) {
    const reply = await call('GET', `/v1/orgs/${organizationId}/teams/${teamId}`);
    expect(reply.status, `acknowledged team ${teamId}`).toBe(200);
    expect(reply.body.title).toBe(acked.teams.get(teamId));
  }
  const teams = await listAll(call, `/v1/orgs/${organizationId}/teams`);
  expect(teams.length).toBeGreaterThanOrEqual(acked.teams.size);
  const stored = new Map(teams.map((team) => [team.id, team.title]));
  for (const [id, title] of acked.teams) expect(stored.get(id), `acknowledged team ${id}`).toBe(title);
  for (const teamId of acked.memberships) {
    const members = await listAll(call, `/v1/orgs/${organizationId}/teams/${teamId}/members`);
    expect(members.map((member) => member.organization.id), `members of ${teamId}`).toContain(memberId);
  }
  const organization = await call('GET', `/v1/orgs/${organizationId}`);
  expect(acked.titles, `organization title ${organization.body.title}`).toContain(organization.body.title);
}

test(`${ITERATIONS} kill -9s in the middle of write bursts lose no acknowledged write (seed ${SEED})`, { timeout: 60_000 + ITERATIONS * 15_000 }, async () => {
  const data = join(tempDir(), 'data.json');
  const lock = `${data}.lock`;
  const next = random(SEED);
  const init = await runCli(['init', '--data', data, '--title', 'Crash org', '--json']);
  expect(init.code, init.stderr).toBe(0);
  const { organizationId, token } = JSON.parse(init.stdout);
  const user = await runCli(['user', 'create', '--data', data, '--org', organizationId, '--email', 'member@example.com', '--name', 'Member', '--role', 'read', '--json']);
  expect(user.code, user.stderr).toBe(0);
  const memberId: string = JSON.parse(user.stdout).userId;
  const acked: Acknowledged = { teams: new Map(), memberships: new Set(), titles: new Set(['Crash org']) };
  let newTeams: string[] = [];

  for (let iteration = 0; iteration < ITERATIONS; iteration++) {
    const server = await serve(data);
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid, 'the new server holds the lock').toBe(server.child.pid);
    const call = api(server.url, token);
    await verify(call, organizationId, memberId, acked, newTeams);

    // Kill after a random number of acknowledgements, so the kill lands while writes are in flight.
    const killAfter = 1 + Math.floor(next() * 60);
    let acks = 0;
    const run = burst(call, organizationId, memberId, acked, iteration, next, () => {
      if (++acks === killAfter) server.child.signal('SIGKILL');
    });
    const result = await run;
    expect(result.failures).toEqual([]);
    expect(await server.child.exited).toEqual({ code: null, signal: 'SIGKILL' });
    newTeams = result.newTeams;

    // The dead server's lock stays behind; the next start must take it over.
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(server.child.pid);
    const file = JSON.parse(readFileSync(data, 'utf8'));
    expect(file).toMatchObject({ format: 'docs-platform', version: 1 });
  }

  const last = await serve(data);
  await verify(api(last.url, token), organizationId, memberId, acked, newTeams);
  expect(acked.teams.size).toBeGreaterThan(ITERATIONS);
  last.child.signal('SIGTERM');
  expect(await last.child.exited).toEqual({ code: 0, signal: null });
  expect(existsSync(lock)).toBe(false);
});
