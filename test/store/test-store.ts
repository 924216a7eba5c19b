import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '../../src/postgres.js';
import type { BlobStore } from '../../src/core/blobs.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import { afterAll } from 'vitest';
import { clearSchema, dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from '../postgres/database.js';

/**
 * The store the HTTP suites run on: DOCS_PLATFORM_TEST_STORE=memory (default), json-file or postgres. CI
 * runs them on memory and on PostgreSQL. Each harness gets a fresh, empty store: on PostgreSQL, the test
 * file's schema with every table emptied (creating a schema per test would take most of the run).
 */
export const TEST_STORE = (process.env.DOCS_PLATFORM_TEST_STORE ?? 'memory') as 'memory' | 'json-file' | 'postgres';

if (!['memory', 'json-file', 'postgres'].includes(TEST_STORE)) throw new Error(`DOCS_PLATFORM_TEST_STORE=${TEST_STORE}: use memory, json-file or postgres`);
if (TEST_STORE === 'postgres' && !postgresAvailable) throw new Error(`DOCS_PLATFORM_TEST_STORE=postgres, but ${skipReason}`);

/** A fresh store of the kind chosen, its blob store if it has one, and how to dispose of both. */
export async function openTestStore(): Promise<{ store: Store; blobs?: BlobStore; dispose(): Promise<void> }> {
  switch (TEST_STORE) {
    case 'memory':
      return { store: createMemoryStore(), dispose: async () => undefined };
    case 'json-file': {
      const folder = await mkdtemp(join(tmpdir(), 'dp-http-'));
      const store = await createJsonFileStore({ path: join(folder, 'data.json'), log: () => undefined });
      return { store, dispose: () => rm(folder, { recursive: true, force: true }) };
    }
    case 'postgres': {
      schema ??= freshSchema('http');
      await clearSchema(schema);
      const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4, log: () => undefined });
      return { store, blobs: store.blobs, dispose: async () => undefined };
    }
  }
}

/** The PostgreSQL schema of this test file: made by its first store, emptied for each next one, dropped at the end. */
let schema: string | undefined;
afterAll(async () => {
  if (schema) await dropSchemas([schema]);
});
