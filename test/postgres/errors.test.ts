import { describe, expect, it } from 'vitest';
import { isOutage, isRetryable, OUTAGE_RETRY_AFTER_SECONDS, reasonOf, unavailable } from '../../src/store/postgres/errors.js';
import { StoreUnavailableError } from '../../src/store/types.js';

/** An error as pg makes it from PostgreSQL's answer. */
const pgError = (code: string, message: string, severity = 'ERROR') => Object.assign(new Error(message), { code, severity });

describe('PostgreSQL errors: what the store makes of them', () => {
  it('takes a database away, refusing or gone, or without the store tables, for an outage: a 503 with Retry-After', () => {
    const outages = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      pgError('57P01', 'terminating connection due to administrator command', 'FATAL'),
      pgError('57P03', 'the database system is starting up', 'FATAL'),
      pgError('55000', 'database "x" is not currently accepting connections', 'FATAL'),
      pgError('3D000', 'database "x" does not exist', 'FATAL'),
      pgError('28P01', 'password authentication failed for user "u"', 'FATAL'),
      pgError('08006', 'connection failure'),
      pgError('53300', 'sorry, too many clients already', 'FATAL'),
      pgError('XX000', 'an internal error that ended the session', 'FATAL'),
      pgError('42P01', 'relation "docs_platform.t_tokens" does not exist'),
      pgError('3F000', 'schema "docs_platform" does not exist'),
    ];
    for (const error of outages) {
      expect(isOutage(error), error.message).toBe(true);
      const failure = unavailable(error) as StoreUnavailableError;
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect(failure.retryAfterSeconds).toBe(OUTAGE_RETRY_AFTER_SECONDS);
      expect(failure.message).toContain(error.message);
    }
  });

  it('leaves a bug or a bad statement as it is (a 500), and retries serialization failures and deadlocks', () => {
    for (const error of [pgError('42601', 'syntax error at or near "SELEC"'), pgError('23505', 'duplicate key value'), new TypeError('x is undefined')]) {
      expect(isOutage(error), error.message).toBe(false);
      expect(unavailable(error)).toBe(error);
    }
    expect(isRetryable(pgError('40001', 'could not serialize access'))).toBe(true);
    expect(isRetryable(pgError('40P01', 'deadlock detected'))).toBe(true);
    expect(isOutage(pgError('40001', 'could not serialize access'))).toBe(false);
  });

  it('says an error on one line, by its code when it has no message (a connection refused on every address of a name)', () => {
    expect(reasonOf(Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
    expect(reasonOf(new Error('first\n  second'))).toBe('first second');
  });
});
