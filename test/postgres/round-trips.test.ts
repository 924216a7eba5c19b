import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { createPostgresStore } from '../../src/postgres.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

describe.skipIf(!postgresAvailable)(`PostgreSQL round trips${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('lists a page of 100 members, each with its user and counts, and gets one member, in a few statements', async () => {
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
    let statements = 0;
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        statements++;
        return query(...args);
      }) as typeof client.query;
    });
    const schema = freshSchema('trips');
    schemas.push(schema);
    const store = await createPostgresStore({ pool, schema, log: () => undefined });
    const platform = createPlatform({ store, blobs: store.blobs });
    const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
    const added = [];
    for (let i = 0; i < 120; i++) added.push(await platform.addUser({ organizationId, email: `m${i}@acme.test`, name: `Member ${i}`, role: 'read' }));
    const api = platform.as(userId);
    await api.listMembers({ organizationId, limit: 100 });
    statements = 0;
    const page = await api.listMembers({ organizationId, limit: 100 });
    expect(page.items).toHaveLength(100);
    expect(page.count).toBe(121);
    // The caller's lookup (BEGIN, user, COMMIT), then BEGIN, the organization with the caller's membership, the
    // page, every member's user and counts in one statement, COMMIT.
    expect(statements).toBeLessThanOrEqual(8);

    // An HTTP request's token is looked up in the operation's transaction: BEGIN, token, user, the organization
    // with both memberships, the member's user and counts, COMMIT. (Used once before: a token's first use in a
    // minute also writes its last use, after the answer.)
    await platform.runWithToken(platform.operations.getMember, token, { organizationId, userId: added[7].userId });
    await platform.settle();
    statements = 0;
    const member = await platform.runWithToken(platform.operations.getMember, token, { organizationId, userId: added[7].userId });
    expect(member).toMatchObject({ id: added[7].userId, role: 'read' });
    expect(statements).toBeLessThanOrEqual(6);
    await platform.close();
    await pool.end();
  });
});
