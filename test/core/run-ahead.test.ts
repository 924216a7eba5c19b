import { describe, expect, it } from 'vitest';
import { tokenHash } from '../../src/core/auth.js';
import { createPlatform } from '../../src/core/platform.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';

/**
 * A request with a token this process found before starts its operation alongside the token's reads
 * (platform.ts, runAhead). What the operation did counts only once the token proves valid: a token deleted
 * since is a 401 whatever the operation answered, and its writes are rolled back.
 */

async function started() {
  const store = createMemoryStore();
  const platform = createPlatform({ store });
  const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
  const { createTeam, getOrganization } = platform.operations;
  // Once found, the token is known: the next requests run ahead.
  await platform.runWithToken(createTeam, token, { organizationId, title: 'First' });
  const teams = async () => (await store.read((tx) => tx.list(TABLES.teams, { index: INDEXES.teamsByOrganization, value: organizationId, limit: 0 }))).count;
  const status = (run: Promise<unknown>) => run.then(
    () => 200,
    (error: { status?: number }) => error.status,
  );
  return { store, platform, organizationId, userId, token, createTeam, getOrganization, teams, status };
}

describe('operations that start with the token', () => {
  it('answer as before for a valid token, errors included', async () => {
    const { platform, organizationId, token, createTeam, getOrganization, teams, status } = await started();
    const team = await platform.runWithToken(createTeam, token, { organizationId, title: 'Second' });
    expect(team).toMatchObject({ title: 'Second', members: 0, spaces: 0, permissions: { admin: true, view: true } });
    expect(await teams()).toBe(2);
    expect(await status(platform.runWithToken(getOrganization, token, { organizationId: 'nowhere' }))).toBe(404);
  });

  it('are a 401 and write nothing once the token is deleted, whatever the operation answered', async () => {
    const { store, platform, organizationId, token, createTeam, getOrganization, teams, status } = await started();
    const hash = tokenHash(token)!;
    await store.write((tx) => tx.delete(TABLES.tokens, hash));
    expect(await status(platform.runWithToken(createTeam, token, { organizationId, title: 'Ghost' }))).toBe(401);
    expect(await teams()).toBe(1);
    // The operation would have answered 404; the token's 401 comes first.
    expect(await status(platform.runWithToken(getOrganization, token, { organizationId: 'nowhere' }))).toBe(401);
  });

  it("are a 401 once the token's user is deleted", async () => {
    const { store, platform, organizationId, userId, token, createTeam, teams, status } = await started();
    await store.write((tx) => tx.delete(TABLES.users, userId));
    expect(await status(platform.runWithToken(createTeam, token, { organizationId, title: 'Ghost' }))).toBe(401);
    expect(await teams()).toBe(1);
  });

  it("read the caller's record on demand", async () => {
    const { platform, token } = await started();
    expect(await platform.runWithToken(platform.operations.getAuthenticatedUser, token, {})).toMatchObject({ email: 'owner@acme.test' });
  });
});

describe('a write that locks a scope', () => {
  /** A platform whose store notes the scopes each write transaction took before it started. */
  async function locking() {
    const inner = createMemoryStore();
    const locked: string[][] = [];
    const store: Store = { ...inner, write: (fn, options) => (locked.push((options?.locks ?? []).map((lock) => lock.scope)), inner.write(fn, options)) };
    const platform = createPlatform({ store });
    const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
    const space = await platform.as(userId).createSpace({ organizationId, title: 'Docs' });
    const request = await platform.as(userId).createChangeRequest({ spaceId: space.id });
    locked.length = 0;
    return { platform, token, locked, input: { spaceId: space.id, changeRequestId: request.id } };
  }

  it('takes no scope for a made-up token: it is a 401 before the write starts', async () => {
    const { platform, locked, input } = await locking();
    const madeUp = 'x'.repeat(48);
    await expect(platform.runWithToken(platform.operations.mergeChangeRequest, madeUp, input)).rejects.toMatchObject({ status: 401 });
    expect(locked).toEqual([]);
  });

  it('takes its scope for a valid token this process meets for the first time', async () => {
    const { platform, token, locked, input } = await locking();
    await expect(platform.runWithToken(platform.operations.mergeChangeRequest, token, input)).resolves.toMatchObject({ result: 'merge' });
    // (A later write, with no scope, notes the token's use.)
    expect(locked[0]).toEqual([`space:${input.spaceId}`]);
  });
});
