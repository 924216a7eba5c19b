import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresStore } from '../../src/postgres.js';
import { createMemoryBlobStore, type BlobStore, type BlobStoreOptions } from '../../src/core/blobs.js';
import { createFolderBlobStore } from '../../src/store/blob-folder.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import { createMemoryStore } from '../../src/store/memory.js';
import type { Store } from '../../src/store/types.js';
import { atFileEnd } from '../setup/file-end-hooks.js';
import { dropSchemas, freshSchema, postgresAvailable, schemaEmptier, skipReason, TEST_DATABASE_URL, type SchemaEmptier } from '../postgres/database.js';

/**
 * The store the HTTP suites run on: DOCS_PLATFORM_TEST_STORE=memory (default), json-file or postgres. CI
 * runs them on memory and on PostgreSQL. Each harness gets a fresh, empty store: on PostgreSQL, the test
 * file's schema with every table emptied (creating a schema per test would take most of the run).
 */
export const TEST_STORE = (process.env.DOCS_PLATFORM_TEST_STORE ?? 'memory') as 'memory' | 'json-file' | 'postgres';

if (!['memory', 'json-file', 'postgres'].includes(TEST_STORE)) throw new Error(`DOCS_PLATFORM_TEST_STORE=${TEST_STORE}: use memory, json-file or postgres`);
if (TEST_STORE === 'postgres' && !postgresAvailable) throw new Error(`DOCS_PLATFORM_TEST_STORE=postgres, but ${skipReason}`);

/**
 * A fresh store of the kind chosen, its blob store if it has one, and how to dispose of both. Given a
 * blob clock (`blobs.now`), every kind comes with its own blob store stamped by it: memory, a folder
 * beside the JSON file, the PostgreSQL table.
 */
export async function openTestStore(blobOptions?: BlobStoreOptions): Promise<{ store: Store; blobs?: BlobStore; dispose(): Promise<void> }> {
  switch (TEST_STORE) {
    case 'memory':
      return { store: createMemoryStore(), ...(blobOptions && { blobs: createMemoryBlobStore(blobOptions) }), dispose: async () => undefined };
    case 'json-file': {
      const folder = await mkdtemp(join(tmpdir(), 'dp-http-'));
      const path = join(folder, 'data.json');
      const store = await createJsonFileStore({ path, log: () => undefined });
      const blobs = blobOptions && (await createFolderBlobStore(`${path}.blobs`, blobOptions));
      return { store, ...(blobs && { blobs }), dispose: () => rm(folder, { recursive: true, force: true }) };
    }
    case 'postgres': {
      // The file's first store makes its schema; each next one finds it emptied.
      if (!schema) schema = freshSchema('http');
      else await (emptier ??= schemaEmptier(schema)).empty();
      const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, maxConnections: 4, log: () => undefined, now: blobOptions?.now });
      return { store, blobs: store.blobs, dispose: async () => undefined };
    }
  }
}

/** The PostgreSQL schema of this test file: made by its first store, emptied for each next one, dropped at the end. */
let schema: string | undefined;
/** What empties it, from the file's second store on. */
let emptier: SchemaEmptier | undefined;
atFileEnd(async () => {
  const [ended, ending] = [schema, emptier];
  [schema, emptier] = [undefined, undefined];
  await ending?.end();
  if (ended) await dropSchemas([ended]);
});
