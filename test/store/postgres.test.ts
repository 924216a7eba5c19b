import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore } from '../../src/store/postgres/blobs.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { StoreUnavailableError, type Store } from '../../src/store/types.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from '../postgres/database.js';
import { CONTRACT_SCHEMA, runStoreContract } from './contract.js';

const schemas: string[] = [];
const schemaOf = new WeakMap<Store, string>();
afterAll(() => dropSchemas(schemas));

const open = async (schema: string) => {
  const store = await openPostgresStore({ connectionString: TEST_DATABASE_URL, schema, tables: CONTRACT_SCHEMA, log: () => undefined });
  schemaOf.set(store, schema);
  return store;
};

if (postgresAvailable) {
  runStoreContract({
    name: 'postgres',
    async create() {
      const schema = freshSchema('contract');
      schemas.push(schema);
      return open(schema);
    },
    async reopen(store) {
      await store.close();
      return open(schemaOf.get(store)!);
    },
  });
} else {
  describe.skip(`Store contract: postgres (skipped: ${skipReason})`, () => {
    it('runs the contract suite against PostgreSQL', () => undefined);
  });
}

it('file bytes on a database that cannot be reached: StoreUnavailableError (a 503), as for records', async () => {
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/test' });
  const blobs = createPostgresBlobStore(pool, 'blobs');
  try {
    await expect(blobs.put(new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(blobs.get('a'.repeat(64))).rejects.toBeInstanceOf(StoreUnavailableError);
  } finally {
    await pool.end();
  }
});
