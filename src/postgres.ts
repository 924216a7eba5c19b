/** docs-platform/postgres: the PostgreSQL store, kept apart so that users who never use it never load its driver. */
import { STORE_SCHEMA } from './core/records.js';
import { openPostgresStore, type PostgresStore, type PostgresStoreOptions } from './store/postgres/store.js';

export type { PostgresStore } from './store/postgres/store.js';

/** Options of createPostgresStore: a connection string or a `pg` pool, and where to keep the tables. */
export type CreatePostgresStoreOptions = Omit<PostgresStoreOptions, 'tables'>;

/**
 * Opens the platform's store over PostgreSQL, creating or upgrading its tables first:
 * `createPlatform({ store, blobs: store.blobs })` with `store = await createPostgresStore({ connectionString })`.
 */
export function createPostgresStore(options: CreatePostgresStoreOptions): Promise<PostgresStore> {
  return openPostgresStore({ ...options, tables: STORE_SCHEMA });
}
