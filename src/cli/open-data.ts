import type { BlobStore } from '../core/blobs.js';
import type { RateLimiter } from '../core/rate-limit.js';
import { createFolderBlobStore } from '../store/blob-folder.js';
import { createJsonFileStore } from '../store/json-file.js';
import type { StoreLog } from '../store/postgres/outage.js';
import type { Store } from '../store/types.js';

/** Whether a `--data` value names a PostgreSQL database (`postgres://…`) rather than a JSON file. */
export const isPostgresUrl = (data: string): boolean => /^postgres(ql)?:\/\//i.test(data);

/** A `--data` value as it may be printed: a database URL without its password. */
export function shownData(data: string): string {
  if (!isPostgresUrl(data)) return data;
  try {
    const url = new URL(data);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}

/**
 * The store and the file bytes a `--data` value names: a PostgreSQL database (created if missing and the
 * user may, its tables made or upgraded first; the driver is loaded only then), with the rate limiter every
 * process on it shares, or a JSON data file with its blob folder beside it (and rate limits counted in
 * memory, the platform's default). `log` hears the PostgreSQL store (default stderr).
 */
export async function openData(data: string, log?: StoreLog): Promise<{ store: Store; blobs: BlobStore; rateLimiter?: RateLimiter }> {
  if (isPostgresUrl(data)) {
    const { createPostgresStore } = await import('../postgres.js');
    const store = await createPostgresStore({ ...postgresOptions(data), createDatabase: true, log });
    return { store, blobs: store.blobs, rateLimiter: store.rateLimiter };
  }
  const store = await createJsonFileStore({ path: data });
  // File bytes live beside the JSON file, content-addressed, never inside it.
  return { store, blobs: await createFolderBlobStore(`${data}.blobs`) };
}

/**
 * The store options of a PostgreSQL URL. Its `schema` parameter (`postgres://…/db?schema=docs`) names the
 * PostgreSQL schema the tables live in (default docs_platform), so one database can hold several
 * installations; `query_timeout` (milliseconds) is how long a statement may go unanswered before the
 * request gets a 503 (default 30,000). The rest of the URL goes to the driver as it is.
 */
export function postgresOptions(data: string): { connectionString: string; schema?: string; queryTimeoutMs?: number } {
  const url = new URL(data);
  const schema = url.searchParams.get('schema') ?? undefined;
  const timeout = url.searchParams.get('query_timeout');
  url.searchParams.delete('schema');
  url.searchParams.delete('query_timeout');
  if (timeout !== null && !/^[1-9]\d{0,8}$/.test(timeout)) {
    throw new Error(`The query_timeout of a PostgreSQL URL is a number of milliseconds from 1 to 999999999, not "${timeout}"`);
  }
  return { connectionString: url.toString(), schema, ...(timeout !== null && { queryTimeoutMs: Number(timeout) }) };
}
