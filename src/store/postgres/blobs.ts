import pg from 'pg';
import { isBlobKey, sha256Hex, systemNow, type BlobInfo, type BlobStore, type BlobStoreOptions } from '../blobs.js';
import { unavailable } from './errors.js';

/** How many blobs one statement of `list` reads. */
const LIST_BATCH = 1000;

/** Options of the PostgreSQL blob store. */
export interface PostgresBlobStoreOptions extends BlobStoreOptions {
  /** The error a failed statement rejects with; default errors.ts's unavailable (the store's notes an outage too). */
  failed?: (error: unknown) => unknown;
}

/**
 * A blob store in PostgreSQL, in the store's `blobs` table, so that every server process on the database
 * reaches the same file bytes. Content-addressed like every blob store: a put of bytes already there
 * writes only its `stored_at`; a put resolves once the bytes are committed (durable). `put`, `touch` and
 * `delete` of one key are each one statement on its row, so PostgreSQL's row lock orders them: a delete
 * that finds the row re-stamped by a put meanwhile leaves it. A database that cannot be reached rejects
 * with StoreUnavailableError (503), as the store's transactions do.
 */
export function createPostgresBlobStore(pool: pg.Pool, table: string, options: PostgresBlobStoreOptions = {}): BlobStore {
  const now = options.now ?? systemNow;
  const rethrow = (error: unknown): never => {
    throw (options.failed ?? unavailable)(error);
  };
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      await pool
        .query(
          `INSERT INTO ${table} (key, bytes, stored_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET stored_at = GREATEST(${table}.stored_at, excluded.stored_at)`,
          [key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), now()],
        )
        .catch(rethrow);
      return key;
    },
    async get(key) {
      if (!isBlobKey(key)) return undefined;
      const { rows } = await pool.query(`SELECT bytes FROM ${table} WHERE key = $1`, [key]).catch(rethrow);
      return rows.length === 0 ? undefined : new Uint8Array(rows[0].bytes as Buffer);
    },
    async touch(key) {
      if (!isBlobKey(key)) return false;
      const { rowCount } = await pool.query(`UPDATE ${table} SET stored_at = GREATEST(stored_at, $2) WHERE key = $1`, [key, now()]).catch(rethrow);
      return rowCount === 1;
    },
    async *list(): AsyncGenerator<BlobInfo> {
      let after = '';
      for (;;) {
        // octet_length reads a stored value's size from its header, without fetching the bytes.
        const { rows } = await pool
          .query(`SELECT key, octet_length(bytes) AS size, stored_at FROM ${table} WHERE key > $1 ORDER BY key LIMIT ${LIST_BATCH}`, [after])
          .catch(rethrow);
        for (const row of rows) yield { key: row.key as string, size: Number(row.size), storedAt: row.stored_at as Date };
        if (rows.length < LIST_BATCH) return;
        after = rows[rows.length - 1].key as string;
      }
    },
    async delete(key, storedBefore) {
      if (!isBlobKey(key)) return false;
      const { rowCount } = await pool.query(`DELETE FROM ${table} WHERE key = $1 AND stored_at < $2`, [key, storedBefore]).catch(rethrow);
      return rowCount === 1;
    },
  };
}
