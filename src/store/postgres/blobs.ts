import pg from 'pg';
import { isBlobKey, sha256Hex, type BlobStore } from '../blobs.js';
import { unavailable } from './errors.js';

/**
 * A blob store in PostgreSQL, in the store's `blobs` table, so that every server process on the database
 * reaches the same file bytes. Content-addressed like every blob store: a put of bytes already there
 * writes nothing; a put resolves once the bytes are committed (durable). A database that cannot be
 * reached rejects with StoreUnavailableError (503), as the store's transactions do.
 */
export function createPostgresBlobStore(pool: pg.Pool, table: string): BlobStore {
  return {
    async put(bytes) {
      const key = await sha256Hex(bytes);
      await pool
        .query(`INSERT INTO ${table} (key, bytes) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [key, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)])
        .catch(rethrow);
      return key;
    },
    async get(key) {
      if (!isBlobKey(key)) return undefined;
      const { rows } = await pool.query(`SELECT bytes FROM ${table} WHERE key = $1`, [key]).catch(rethrow);
      return rows.length === 0 ? undefined : new Uint8Array(rows[0].bytes as Buffer);
    },
  };
}

const rethrow = (error: unknown): never => {
  throw unavailable(error);
};
