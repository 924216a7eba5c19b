import { afterAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { parseOrThrow } from '../../src/core/validate.js';
import type { Operation } from '../../src/core/operation.js';
import { createPostgresStore } from '../../src/postgres.js';
import { cheapest, countingPool, type CountingPool } from './counting-pool.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

/** A platform over a fresh schema through a counting pool of 2 connections, with its first organization. */
async function openCounted() {
  const counted = countingPool(2);
  const schema = freshSchema('trips');
  schemas.push(schema);
  const store = await createPostgresStore({ pool: counted.pool, schema, log: () => undefined });
  const platform = createPlatform({ store, blobs: store.blobs });
  const first = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
  const close = async () => {
    await platform.close();
    await counted.pool.end();
  };
  return { counted, platform, close, ...first };
}

/** The fewest statements and socket writes of a few runs (the first use of a token in a minute also writes its last use). */
async function fewest(counted: CountingPool, run: () => Promise<unknown>, tries = 3) {
  let best = { statements: Infinity, writes: Infinity };
  for (let i = 0; i < tries; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    counted.reset();
    await run();
    if (counted.statements() < best.statements) best = { statements: counted.statements(), writes: counted.writes() };
  }
  return best;
}

describe.skipIf(!postgresAvailable)(`PostgreSQL round trips${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('lists a page of 100 members, each with its user and counts, and gets one member, in a few statements', async () => {
    const counted = countingPool(2);
    const pool = counted.pool;
    const schema = freshSchema('trips');
    schemas.push(schema);
    const store = await createPostgresStore({ pool, schema, log: () => undefined });
    const platform = createPlatform({ store, blobs: store.blobs });
    const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
    const added: Awaited<ReturnType<typeof platform.addUser>>[] = [];
    for (let i = 0; i < 120; i++) added.push(await platform.addUser({ organizationId, email: `m${i}@acme.test`, name: `Member ${i}`, role: 'read' }));
    const api = platform.as(userId);
    await api.listMembers({ organizationId, limit: 100 });
    const page = await api.listMembers({ organizationId, limit: 100 });
    expect(page.items).toHaveLength(100);
    expect(page.count).toBe(121);
    // The caller's lookup (BEGIN, user, COMMIT), then BEGIN, the organization with the caller's membership, the
    // page, every member's user and counts in one statement, COMMIT. A commit anywhere in the database server
    // (another test file's, alongside) between the snapshot probe and the read adds a probe and a retry: so
    // the fewest of a few tries.
    expect(await cheapest(counted.statements, () => api.listMembers({ organizationId, limit: 100 }), 5)).toBeLessThanOrEqual(8);

    // An HTTP request's token is looked up in the operation's transaction. (Used once before: a token's first
    // use in a minute also writes its last use, after the answer.) After that write, the read asks for the
    // snapshot (the cache's is gone), then runs in a transaction: BEGIN with the snapshot again; the token
    // with its user (known from its first use), the organization and both memberships, in one statement (the
    // operation starts with the token's reads); the member's user and counts; COMMIT.
    await platform.runWithToken(platform.operations.getMember, token, { organizationId, userId: added[7].userId });
    await platform.settle();
    const readMember = () => platform.runWithToken(platform.operations.getMember, token, { organizationId, userId: added[7].userId });
    const member = await readMember();
    expect(member).toMatchObject({ id: added[7].userId, role: 'read' });
    expect(await cheapest(counted.statements, readMember, 5)).toBeLessThanOrEqual(6);
    // A write, in 2 round trips: BEGIN with the token, its user, the organization and the caller's membership
    // (one statement); then the new team with COMMIT. Its counts and the caller's place in it are not read
    // back: a team created in this transaction has none but what it added. (After the read's COMMIT has left.)
    await new Promise((resolve) => setImmediate(resolve));
    counted.reset();
    await platform.runWithToken(platform.operations.createTeam, token, { organizationId, title: 'Writers' });
    expect(counted.statements()).toBeLessThanOrEqual(4);
    expect(counted.writes()).toBeLessThanOrEqual(2);
    // Nothing committed since: the same request is answered from the snapshot cache. Once it has answered a
    // few reads whole (store.ts, PROBE_WORTH), a read costs one statement: the one that finds the database's
    // snapshot unchanged. (Any commit in the database server, another test file's alongside, empties the
    // cache: so the fewest of a few tries.)
    const getMember = async () => expect(await platform.runWithToken(platform.operations.getMember, token, { organizationId, userId: added[7].userId })).toEqual(member);
    expect(await cheapest(counted.statements, getMember, 12)).toBe(1);
    await platform.close();
    await pool.end();
    // 121 users added one by one: far longer than the default 10 s on a loaded machine.
  }, 60_000);
  it('creates a space in 3 round trips, a change request in 4 and inserts a page in 6', async () => {
    const { counted, platform, close, organizationId, token } = await openCounted();
    const ops = platform.operations;
    const space = (await platform.runWithToken(ops.createSpace, token, { organizationId, title: 'Docs' })) as { id: string };
    // BEGIN with the token's reads, the caller's membership and the last sibling of each table; the caller's
    // levels (collections and teams, together); the records with COMMIT. A new space's counts are not read.
    expect(await fewest(counted, () => platform.runWithToken(ops.createSpace, token, { organizationId, title: 'Docs' }))).toEqual({ statements: 6, writes: 3 });
    // BEGIN with the token's reads, the space, the highest number, and the caller's membership and levels in the
    // space's organization (known from an earlier read of the space: loadSpace); the record with COMMIT. The
    // number is drawn on a connection of its own (numbers.ts), not counted here.
    expect(await fewest(counted, () => platform.runWithToken(ops.createChangeRequest, token, { spaceId: space.id }))).toEqual({ statements: 4, writes: 2 });
    const changeRequest = (await platform.runWithToken(ops.createChangeRequest, token, { spaceId: space.id })) as { id: string };
    const input = parseOrThrow(ops.updateChangeRequestContent.input, {
      spaceId: space.id,
      changeRequestId: changeRequest.id,
      changes: [{ operation: 'insert_page', title: 'A page', document: { markdown: 'Some text.' } }],
    });
    const insertPage = () => platform.runWithToken(ops.updateChangeRequestContent as Operation<typeof input, unknown>, token, input);
    await insertPage();
    // An insert without files prepares nothing, so its token is read in its transaction: BEGIN with the token,
    // the space, the change request, the membership and the levels; the revision with the answer's comment
    // count; every map's root at once; the changes with COMMIT.
    expect(await fewest(counted, insertPage)).toEqual({ statements: 9, writes: 4 });
    await close();
  });

  it('inserts a page among 200 in 6 round trips, titled anew or as all 200', async () => {
    const { counted, platform, close, organizationId, token } = await openCounted();
    const ops = platform.operations;
    const space = (await platform.runWithToken(ops.createSpace, token, { organizationId, title: 'Docs' })) as { id: string };
    const changeRequest = (await platform.runWithToken(ops.createChangeRequest, token, { spaceId: space.id })) as { id: string };
    const insert = (title: string, count = 1) => {
      const changes = Array.from({ length: count }, () => ({ operation: 'insert_page', title, document: { markdown: 'Some text.' } }));
      const input = parseOrThrow(ops.updateChangeRequestContent.input, { spaceId: space.id, changeRequestId: changeRequest.id, changes });
      return platform.runWithToken(ops.updateChangeRequestContent as Operation<typeof input, unknown>, token, input);
    };
    for (let batch = 0; batch < 4; batch++) await insert('A page', 50);
    let n = 0;
    const anew = await fewest(counted, () => insert(`Other ${n++}`));
    const alike = await fewest(counted, () => insert('A page'));
    // The maps have two levels here: the leaves of the pages, children and paths maps are read at once
    // (insertPage), not one map after the other (8 round trips).
    expect(anew.writes).toBeLessThanOrEqual(6);
    // 'a-page' alone, then 'a-page-2' to 'a-page-65' together, and so on (freeSlug): a batch's leaves of the paths
    // map in one round trip, most of them read already. One candidate at a time, it took 13 round trips (16 at 300).
    expect(alike.writes).toBeLessThanOrEqual(anew.writes + 1);
    await close();
  }, 60_000);

  it("moves a section of a 12-section site in 12 round trips, holding the site's lock meanwhile (a round trip a level of the structure, not a section)", async () => {
    const { counted, platform, close, organizationId, userId, token } = await openCounted();
    const api = platform.as(userId);
    const siteId = (await api.createSite({ organizationId, title: 'Docs' })).id;
    const sections: string[] = [];
    for (let at = 0; at < 12; at++) {
      const space = (await api.createSpace({ organizationId, title: `Part ${at}` })) as { id: string };
      sections.push((await api.addSectionToSite({ organizationId, siteId, spaceId: space.id })).id);
    }
    const [first, last] = [sections[0], sections[11]];
    let turn = 0;
    // Before the first section, then after the last: never where it already is.
    const move = () => {
      const position = turn++ % 2 === 0 ? { before: { type: 'site-section' as const, siteSection: first } } : { after: { type: 'site-section' as const, siteSection: last } };
      return platform.runWithToken(platform.operations.moveSiteSection, token, { organizationId, siteId, siteSectionId: sections[5], position });
    };
    await move();
    const best = await fewest(counted, move, 4);
    // The token's reads; the organization and membership with the site; the section; its siblings; the move with
    // the structure's levels for the answer (every section's site spaces in one statement; read one section at a
    // time, the move took 29 statements in 27 round trips); the answer's space and its figures; COMMIT with the
    // site's lock released.
    expect(best).toEqual({ statements: 15, writes: 12 });
    await close();
  });
});
