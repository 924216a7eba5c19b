import type autocannon from 'autocannon';
import type { BenchConfig } from './config.js';
import type { Measurement } from './load.js';
import type { SeededData } from './seed.js';

/** Which ceiling a case is compared with. */
export type CeilingKind = 'small' | 'list';

/** What a case measures. */
export type CaseKind = 'ceiling' | 'get-one' | 'list' | 'patch-role' | 'put-team';

/** The server a case runs against: its store, and how many processes serve the one port. */
export interface ServerKind {
  readonly store: 'json' | 'postgres';
  readonly processes: number;
}

/** The bundled server over the JSON-file store, in one process (a data file is open in one process at a time). */
export const JSON_SERVER: ServerKind = { store: 'json', processes: 1 };

/** One line of the report: a request, the load it is sent with, and what a good answer is. */
export interface Case {
  /** E.g. `list-100k`; BENCH_CASES selects cases by words of it. */
  readonly id: string;
  readonly kind: CaseKind;
  /** Members in the organization; null for the ceilings. */
  readonly members: number | null;
  /** The server it runs against; null for the ceilings. */
  readonly server: ServerKind | null;
  /** The ceiling a ratio is computed against (for a ceiling: the one it is). */
  readonly ceiling: CeilingKind;
  readonly connections: number;
  readonly request: autocannon.Request;
  readonly expectedStatus: number;
  /** Checks, after the run, that the case did what it claims (e.g. that the writes took effect). */
  readonly verify?: (measurement: Measurement) => Promise<string[]>;
}

/** `1k`, `100k`, `2.5k`, or the number itself below 1,000. */
export function sizeLabel(members: number): string {
  return members >= 1000 ? `${+(members / 1000).toFixed(1)}k` : String(members);
}

/** The case of a ceiling: GET / on the bare server. */
export function ceilingCase(kind: CeilingKind, config: BenchConfig): Case {
  return { id: `ceiling-${kind}`, kind: 'ceiling', members: null, server: null, ceiling: kind, connections: config.connections, request: { method: 'GET', path: '/' }, expectedStatus: 200 };
}

/** The id of a case: `list-100k` on the JSON-file store, `pg2-list-100k` on PostgreSQL with 2 processes. */
function caseId(kind: CaseKind, members: number, server: ServerKind): string {
  return `${server.store === 'postgres' ? `pg${server.processes}-` : ''}${kind}-${sizeLabel(members)}`;
}

/**
 * The ids of every case, without building them, so that BENCH_CASES can skip a data set entirely. On
 * PostgreSQL the writes are PUT team alone: PATCH role measures the same commit path.
 */
export function caseIds(members: number, withWrites: boolean, server: ServerKind = JSON_SERVER): string[] {
  const writes: CaseKind[] = server.store === 'json' ? ['patch-role', 'put-team'] : ['put-team'];
  return (['get-one', 'list', ...(withWrites ? writes : [])] as CaseKind[]).map((kind) => caseId(kind, members, server));
}

/**
 * The cases against the server under test over a seeded organization: GET one member, GET the first
 * page of 100 members, and (`withWrites`) PATCH a member's role and PUT a new team. All act as the
 * owner, the organization's only admin.
 */
export function platformCases(url: string, seeded: SeededData, config: BenchConfig, withWrites: boolean, server: ServerKind = JSON_SERVER): Case[] {
  const wanted = caseIds(seeded.members, withWrites, server);
  const [getOneId, listId, patchId, putTeamId] = (['get-one', 'list', 'patch-role', 'put-team'] as const).map((kind) => caseId(kind, seeded.members, server));
  const org = `/v1/orgs/${seeded.organizationId}`;
  const auth = { authorization: `Bearer ${seeded.token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const read = (id: string, kind: CaseKind, ceiling: CeilingKind, path: string): Case => ({
    id,
    kind,
    members: seeded.members,
    server,
    ceiling,
    connections: config.connections,
    request: { method: 'GET', path, headers: auth },
    expectedStatus: 200,
  });
  const cases = [
    read(getOneId, 'get-one', 'small', `${org}/members/${seeded.memberIds[Math.floor(seeded.memberIds.length / 2)]}`),
    read(listId, 'list', 'list', `${org}/members?limit=100`),
  ];
  if (!withWrites) return cases;
  const all: Case[] = [
    ...cases,
    patchRoleCase(patchId, url, org, seeded, json, config, server),
    {
      id: putTeamId,
      kind: 'put-team',
      members: seeded.members,
      server,
      ceiling: 'small',
      connections: config.writeConnections,
      request: { method: 'PUT', path: `${org}/teams`, headers: json, body: JSON.stringify({ title: 'Bench team' }) },
      expectedStatus: 201,
      async verify(measurement) {
        // Every 201 is a team in the store: the count must have grown by at least as many.
        const created = (measurement.warmup?.statusCodes['201'] ?? 0) + (measurement.statusCodes['201'] ?? 0);
        const response = await fetch(`${url}${org}/teams?limit=1`, { headers: auth });
        const { count } = (await response.json()) as { count: number };
        return count >= created ? [] : [`${created} teams were acknowledged but the organization has ${count}`];
      },
    },
  ];
  return all.filter((item) => wanted.includes(item.id));
}

/**
 * PATCH the role of the members other than the owner, in turn. Each request sets the role the member
 * does not have (`edit` or `read`, by the last acknowledged answer), because a PATCH to the role a
 * member already has returns without writing. A member is never sent while a request for it is in
 * flight: a request delayed past a whole round of the others (a loaded machine) would otherwise race a
 * newer one for the same member, and the server may apply them in the other order than they are
 * answered. A request cut off at the end of a slice never gets its answer; its member is sent again only
 * once that request is long over (ABANDONED_MS), and its next answer makes its role known again.
 */
function patchRoleCase(id: string, url: string, org: string, seeded: SeededData, headers: Record<string, string>, config: BenchConfig, server: ServerKind): Case {
  const ABANDONED_MS = 15_000;
  const members = seeded.memberIds;
  const acknowledged = new Map<string, string>(members.map((member) => [member, 'read']));
  /** Members with a request in flight (or cut off), with when it was sent. */
  const inFlight = new Map<string, number>();
  let next = 0;
  const pick = () => {
    for (let tries = 0; tries < members.length; tries++) {
      const member = members[next++ % members.length];
      const since = inFlight.get(member);
      if (since === undefined || Date.now() - since > ABANDONED_MS) return member;
    }
    throw new Error('patch-role: every member has a request in flight');
  };
  return {
    id,
    kind: 'patch-role',
    members: seeded.members,
    server,
    ceiling: 'small',
    connections: config.writeConnections,
    expectedStatus: 200,
    request: {
      method: 'PATCH',
      path: `${org}/members/${members[0]}`,
      headers,
      setupRequest(request, context) {
        const member = pick();
        const role = acknowledged.get(member) === 'edit' ? 'read' : 'edit';
        inFlight.set(member, Date.now());
        context.member = member;
        context.role = role;
        return { ...request, path: `${org}/members/${member}`, body: JSON.stringify({ role }) };
      },
      onResponse(status, _body, context) {
        inFlight.delete(context.member as string);
        if (status === 200) acknowledged.set(context.member as string, context.role as string);
      },
    },
    async verify() {
      // Every member whose last request was answered must have the role of that answer.
      const settled = members.filter((member) => !inFlight.has(member));
      const sample = settled.filter((_, at) => at % Math.max(1, Math.floor(settled.length / 20)) === 0);
      const wrong: string[] = [];
      for (const member of sample) {
        const response = await fetch(`${url}${org}/members/${member}`, { headers: { authorization: headers.authorization } });
        const { role } = (await response.json()) as { role: string };
        if (role !== acknowledged.get(member)) wrong.push(`${member} has role ${role}, not ${acknowledged.get(member)}`);
      }
      return wrong;
    },
  };
}
