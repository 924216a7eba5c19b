import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { createPostgresStore } from '../../src/postgres.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

describe.skipIf(!postgresAvailable)(`PostgreSQL round trips${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('lists a page of 100 members, each with its user and counts, in a few statements, not one per member', async () => {
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
    const { organizationId, userId } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
    for (let i = 0; i < 120; i++) await platform.addUser({ organizationId, email: `m${i}@acme.test`, name: `Member ${i}`, role: 'read' });
    const api = platform.as(userId);
    await api.listMembers({ organizationId, limit: 100 });
    statements = 0;
    const page = await api.listMembers({ organizationId, limit: 100 });
    expect(page.items).toHaveLength(100);
    expect(page.count).toBe(121);
    // BEGIN and COMMIT of the caller's lookup and of the list, and a statement per step of the presenters.
    expect(statements).toBeLessThanOrEqual(16);
    await platform.close();
    await pool.end();
  });
});
