/**
 * What a PostgreSQL error means to the store, decided here alone: a serialization failure or a deadlock is
 * retried (the transaction's function runs again); a database that cannot be reached, or that no longer
 * holds the store's tables, is an outage: a StoreUnavailableError with a Retry-After (a 503 the client may
 * try again), never a 500; anything else is a bug or a bad statement that goes up as it is.
 */

import { StoreUnavailableError } from '../types.js';

/** How long a client is told to wait during an outage before trying again (Retry-After), in seconds. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATEs after which a write transaction is run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/**
 * Node's socket errors, and PostgreSQL's: a database that does not exist (3D000) or does not take
 * connections now (55000, `ALLOW_CONNECTIONS false`), both refused at connect. The store sends no
 * statement that raises 55000 otherwise.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '3D000', '55000']);

/**
 * SQLSTATE classes of a database that cannot serve: 08 connection exception, 28 a login refused,
 * 53 insufficient resources (too many connections, a full disk), 57 operator intervention (shut down,
 * crashed, cannot connect now, connections terminated).
 */
const UNREACHABLE_CLASSES = new Set(['08', '28', '53', '57']);

/** What pg says when a connection ends or cannot be made (it gives these errors no code). */
const UNREACHABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end|Query read timeout/i;

/**
 * undefined_table and invalid_schema_name: the database answers, but the store's schema or tables are not
 * there (dropped, or the database recreated empty under a running server). The store only names tables its
 * migrations made.
 */
const SCHEMA_MISSING_CODES = new Set(['42P01', '3F000']);

/** The SQLSTATE (or Node's code) of an error, if it has one. */
export const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** Whether a transaction that failed with this error should run again. */
export const isRetryable = (error: unknown): boolean => RETRYABLE.has(codeOf(error) as string);

/** Why a transaction runs again, as the retries metric names it: `serialization` or `deadlock`. */
export const retryReason = (error: unknown): string => (codeOf(error) === '40P01' ? 'deadlock' : 'serialization');

/** Whether this error means the database cannot be reached: its connection is lost or cannot be made. */
export function isUnreachable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || (code.length === 5 && UNREACHABLE_CLASSES.has(code.slice(0, 2))))) return true;
  // A FATAL error ends the server's session, whatever its code: the connection is gone.
  const severity = (error as { severity?: unknown } | null)?.severity;
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  return error instanceof Error && UNREACHABLE_MESSAGES.test(error.message);
}

/** Whether an error is PostgreSQL's refusal of a connection to a database that does not exist (invalid_catalog_name). */
export const isMissingDatabase = (error: unknown): boolean => codeOf(error) === '3D000';

/** Whether this error means the database holds no schema or tables of the store (see SCHEMA_MISSING_CODES). */
export const isSchemaMissing = (error: unknown): boolean => SCHEMA_MISSING_CODES.has(codeOf(error) as string);

/** Whether this error is an outage: the database cannot be reached, or holds no tables of the store. */
export const isOutage = (error: unknown): boolean => isUnreachable(error) || isSchemaMissing(error);

/**
 * What an error says, on one line. Node's connection errors to a name with several addresses are an
 * AggregateError with an empty message and the code alone.
 */
export function reasonOf(error: unknown): string {
  const message = (error as Error | null)?.message || String(codeOf(error) ?? error);
  return message.replace(/\s+/g, ' ').trim();
}

/** The error to reject with: for an outage, a StoreUnavailableError with a Retry-After; else the error itself. */
export function unavailable(error: unknown): unknown {
  const options = { cause: error, retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS };
  if (isUnreachable(error)) return new StoreUnavailableError(`The database cannot be reached (${reasonOf(error)}); try again`, options);
  if (isSchemaMissing(error)) return new StoreUnavailableError(`The database does not hold the store's tables (${reasonOf(error)}); try again later`, options);
  return error;
}
