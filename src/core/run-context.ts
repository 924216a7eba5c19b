import type { BlobStore } from './blobs.js';
import type { Clock } from './clock.js';
import type { BackgroundTask, Caller, Context, Fetch, Urls } from './context.js';
import type { DerivedCache } from './derived.js';
import type { Ids } from './ids.js';
import { MEMO, type Memo } from './per-transaction.js';
import type { Secrets } from './secrets.js';
import type { Workers } from './workers.js';

/** What every operation's context carries from its platform. */
export type ContextPorts = Pick<Context, 'clock' | 'ids' | 'secrets' | 'fetch' | 'fetchTimeoutMs' | 'blobs' | 'derived' | 'workers'>;

/**
 * The context of one run of an operation's transaction. A class rather than an object literal, because one
 * is made per request: `defer` lives on the prototype (no closure each time), the memo's slot is there from
 * the start, and the request's time (`at`) is written out as ISO 8601 only if the operation reads `now`
 * (toISOString goes through V8's C++ runtime and printf, about half a microsecond; most reads never look).
 */
export class RunContext implements Context {
  readonly clock: Clock;
  readonly ids: Ids;
  readonly secrets: Secrets;
  readonly fetch: Fetch;
  readonly fetchTimeoutMs: number;
  readonly blobs: BlobStore;
  readonly derived: DerivedCache;
  readonly workers: Workers;
  readonly #at: Date;
  #now: string | undefined = undefined;
  /** oncePerTransaction's memo, made on first use. */
  [MEMO]: Memo | undefined = undefined;

  constructor(
    readonly tx: Context['tx'],
    readonly actor: Caller,
    readonly urls: Urls,
    ports: ContextPorts,
    private readonly deferred: BackgroundTask[],
    at: Date,
  ) {
    this.clock = ports.clock;
    this.ids = ports.ids;
    this.secrets = ports.secrets;
    this.fetch = ports.fetch;
    this.fetchTimeoutMs = ports.fetchTimeoutMs;
    this.blobs = ports.blobs;
    this.derived = ports.derived;
    this.workers = ports.workers;
    this.#at = at;
  }

  get now(): string {
    return (this.#now ??= this.#at.toISOString());
  }

  defer(task: BackgroundTask): void {
    this.deferred.push(task);
  }
}
