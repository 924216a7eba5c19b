/**
 * What a PostgreSQL error means to the store: a serialization failure or a deadlock is retried (the
 * transaction's function runs again), a lost or refused connection is a StoreUnavailableError (503), and
 * anything else is a bug or a bad statement that goes up as it is.
 */

import { StoreUnavailableError } from '../types.js';

/** SQLSTATEs after which a write transaction is run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

/** Node's socket errors and PostgreSQL's connection and shutdown classes: the database is not reachable now. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', '57P01', '57P02', '57P03', '53300']);

/** What pg says when a connection ends or cannot be made (it gives these errors no code). */
const UNREACHABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Cannot use a pool after calling end|Query read timeout/i;

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** Whether a transaction that failed with this error should run again. */
export const isRetryable = (error: unknown): boolean => RETRYABLE.has(codeOf(error) as string);

/** Whether this error means the database cannot be reached (class 08 is connection_exception). */
export function isUnreachable(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return error instanceof Error && UNREACHABLE_MESSAGES.test(error.message);
}

/** The error to reject with: a StoreUnavailableError for a database that cannot be reached, else the error itself. */
export function unavailable(error: unknown): unknown {
  if (!isUnreachable(error)) return error;
  return new StoreUnavailableError(`The database cannot be reached (${(error as Error).message}); try again`, { cause: error });
}
