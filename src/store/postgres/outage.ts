import { isOutage, isSchemaMissing, reasonOf, unavailable } from './errors.js';

/** Where a PostgreSQL store reports: a line, and how much it matters (default `info`; `debug`: each write that runs again). */
export type StoreLog = (line: string, level?: 'debug' | 'info' | 'error') => void;

/**
 * Whether the store's database is away, as the store's calls find it. The first call that fails for want of
 * the database (errors.ts: isOutage) logs one line, `database unreachable: <reason>`, and the first that
 * succeeds after it logs `database reachable again after N s`; the calls between log nothing, and their
 * requests answer 503 with Retry-After. A stack per request said nothing more, and buried everything else.
 * Each change calls `onChange` (the store empties its snapshot cache and its readiness answer).
 */
export class OutageWatch {
  /** When the outage under way began (ms), or undefined while the database answers. */
  private since: number | undefined;

  constructor(
    private readonly log: StoreLog,
    private readonly now: () => Date,
    private readonly onChange: () => void,
  ) {}

  /**
   * The error a failed call rejects with (errors.ts: unavailable), noting an outage when it is one.
   * `statementFailure` is the first statement of its transaction that failed: the transaction's function may
   * have caught it and thrown another error.
   */
  failed(error: unknown, statementFailure?: unknown): unknown {
    const cause = !isOutage(error) && isOutage(statementFailure) ? statementFailure : error;
    if (!isOutage(cause)) return error;
    if (this.since === undefined) {
      this.since = this.now().getTime();
      const reason = isSchemaMissing(cause) ? `its schema or tables are gone (${reasonOf(cause)})` : reasonOf(cause);
      this.log(`docs-platform store: database unreachable: ${reason}`, 'error');
      this.onChange();
    }
    return unavailable(cause);
  }

  /** A call the database answered in full: an outage under way is over. */
  reached(): void {
    if (this.since === undefined) return;
    const seconds = Math.max(0, Math.round((this.now().getTime() - this.since) / 100) / 10);
    this.since = undefined;
    this.log(`docs-platform store: database reachable again after ${seconds} s`, 'info');
    this.onChange();
  }
}
