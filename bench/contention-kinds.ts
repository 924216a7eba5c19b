/**
 * The writes of the contention case (contention-case.ts) and of the PostgreSQL evidence (pg-evidence.ts): for
 * each kind, what its writers need made before they are timed, and the request each writer sends, through
 * any HTTP client of the API (a server's port, or the fetch handler in process). Every kind writes in one
 * place, where writers could fail or wait for each other (issue 28):
 *
 * - `spaces`: POST a space in one organization;
 * - `change-requests`: POST a change request in one space;
 * - `pages`: insert a page, each writer into a change request of its own (made before it is timed);
 * - `merges`: a change request with one new page, merged into one space (three requests; the merge is what
 *   is counted): merges that do not conflict, which queue on the space;
 * - `comments`: POST a comment in one space;
 * - `members`: PATCH the role of a member of one organization, each writer its own member, between `edit`
 *   and `read` (a change of role that may take an admin's, so it queues on the organization);
 * - `teams`: PUT then DELETE a member of one team, each writer its own member;
 * - `site-moves`: move a section of one site, each writer its own, before the site's first fixed section and
 *   after its last in turn (never where it already is, which would be a 409).
 */
import type { SeededData } from './seed.js';

export type ContentionKind = 'spaces' | 'change-requests' | 'pages' | 'merges' | 'comments' | 'members' | 'teams' | 'site-moves';

export const KINDS: readonly ContentionKind[] = ['spaces', 'change-requests', 'pages', 'merges', 'comments', 'members', 'teams', 'site-moves'];

/** An answer: its status and its JSON body (or `{ text }`). */
export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** Sends a request to the API as the seeded owner. */
export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

/** A kind's writer: sends its write (writer `at` of the phase) and resolves with the answer of the one counted. */
export type Send = ((writer: number) => Promise<Answer>) & { expected: number };

/** A client of the API through `fetch` (a server's URL, or a fetch handler), as the seeded owner. */
export function fetchClient(token: string, fetcher: (request: Request) => Promise<Response>, url = 'http://127.0.0.1'): Call {
  return async (method, path, body) => {
    const response = await fetcher(
      new Request(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text);
    } catch {
      json = { text };
    }
    return { status: response.status, json };
  };
}

/** How many members other than the owner the seeded organization needs: one a writer, for `members` and `teams`. */
export const MEMBERS_NEEDED = 16;

/** Makes what a kind's writers need before they are timed, and the request each writer sends. */
export async function prepareKind(call: Call, seeded: SeededData, kind: ContentionKind, writers: number): Promise<Send> {
  const made = async (method: string, path: string, body: unknown, status = 201) => {
    const answer = await call(method, path, body);
    if (answer.status !== status) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  const org = `/v1/orgs/${seeded.organizationId}`;
  const send = (expected: number, write: (writer: number) => Promise<Answer>): Send => Object.assign(write, { expected });
  if (kind === 'spaces') return send(201, () => call('POST', `${org}/spaces`, { title: 'Contention' }));
  if (kind === 'members' || kind === 'teams') {
    if (seeded.memberIds.length < writers) throw new Error(`${kind}: ${writers} writers need ${writers} members, seeded ${seeded.memberIds.length}`);
    if (kind === 'members') {
      const turns = new Array<number>(writers).fill(0);
      return send(200, (writer) => call('PATCH', `${org}/members/${seeded.memberIds[writer]}`, { role: turns[writer]++ % 2 === 0 ? 'edit' : 'read' }));
    }
    const team = (await made('PUT', `${org}/teams`, { title: `Contention ${writers}` })).id as string;
    const turns = new Array<number>(writers).fill(0);
    return send(204, (writer) => call(turns[writer]++ % 2 === 0 ? 'PUT' : 'DELETE', `${org}/teams/${team}/members/${seeded.memberIds[writer]}`));
  }
  if (kind === 'site-moves') return siteMoves(made, call, org, writers, send);
  const space = `/v1/spaces/${(await made('POST', `${org}/spaces`, { title: `Contention ${kind} ${writers}` })).id as string}`;
  const changes = [{ operation: 'insert_page', title: 'A page', document: { markdown: 'Some text.' } }];
  if (kind === 'change-requests') return send(201, () => call('POST', `${space}/change-requests`, { subject: 'Contention' }));
  if (kind === 'comments') return send(200, () => call('POST', `${space}/comments`, { body: { markdown: 'A comment.' } }));
  if (kind === 'merges') {
    return send(200, async () => {
      const changeRequest = `${space}/change-requests/${(await made('POST', `${space}/change-requests`, {})).id as string}`;
      await made('POST', `${changeRequest}/content`, { changes }, 200);
      return call('POST', `${changeRequest}/merge`);
    });
  }
  const requests: string[] = [];
  for (let writer = 0; writer < writers; writer++) requests.push((await made('POST', `${space}/change-requests`, {})).id as string);
  return send(200, (writer) => call('POST', `${space}/change-requests/${requests[writer]}/content`, { changes }));
}

/** `site-moves`: a site with a fixed first and last section and one section a writer between them. */
async function siteMoves(made: (method: string, path: string, body: unknown, status?: number) => Promise<Record<string, unknown>>, call: Call, org: string, writers: number, send: (expected: number, write: (writer: number) => Promise<Answer>) => Send) {
  const site = `${org}/sites/${(await made('POST', `${org}/sites`, { title: `Contention ${writers}` })).id as string}`;
  const sections: string[] = [];
  for (let at = 0; at < writers + 2; at++) {
    const space = (await made('POST', `${org}/spaces`, { title: `Section ${at}` })).id as string;
    sections.push((await made('POST', `${site}/sections`, { spaceId: space })).id as string);
  }
  const [first, last] = [sections[0], sections.at(-1)!];
  const turns = new Array<number>(writers).fill(0);
  return send(200, (writer) => {
    const position = turns[writer]++ % 2 === 0 ? { before: { type: 'site-section', siteSection: first } } : { after: { type: 'site-section', siteSection: last } };
    return call('POST', `${site}/sections/${sections[writer + 1]}/move`, { position });
  });
}
