import { afterAll, describe, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import type { Store } from '../../src/store/types.js';
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
