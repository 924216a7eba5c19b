import type { ReadTransaction, Store, WriteTransaction } from '../store/types.js';
import type { BlobStore } from './blobs.js';
import type { GitTransport } from './git-sync/transport.js';
import type { PdfFonts } from './pdf-fonts.js';
import type { Clock } from './clock.js';
import type { DerivedCache } from './derived.js';
import type { Ids } from './ids.js';
import type { TokenRecord, UserRecord } from './records.js';
import type { Secrets } from './secrets.js';
import type { Workers } from './workers.js';

/** The authenticated caller of an operation. */
export interface Actor {
  /** The user the request acts for. */
  readonly user: UserRecord;
  /** The token it presented, when it came with one (its record: the hash, never the secret). */
  readonly token?: TokenRecord;
}

/**
 * The caller as an operation sees it: its user's id at once, its record on demand. A request with a token
 * this process has seen starts its operation before the token is read (the id is known from it), so that
 * the operation's first reads go with the token's, in one round trip of a networked store; the platform
 * keeps the operation's outcome only once the token proves valid.
 */
export interface Caller {
  /** The id of the user the request acts for. */
  readonly userId: string;
  /** The user's record, read in the operation's transaction. */
  user(): Promise<UserRecord>;
}

/** The caller of an actor whose user is already read. */
export function callerOf(actor: Actor): Caller {
  const user = Promise.resolve(actor.user);
  return { userId: actor.user.id, user: () => user };
}

/** Builds the absolute URLs that responses carry (`urls.location`, `urls.app`, ...). */
export interface Urls {
  /** The URL of an API path, e.g. api('/orgs/x') → https://host/v1/orgs/x. */
  api(path: string): string;
  /** The URL of a page of the application, e.g. app('/o/x'). */
  app(path: string): string;
  /** The URL of published (reader-facing) content, e.g. published('/s/x') → https://host/published/s/x. */
  published(path: string): string;
}

/** Outbound HTTP (OpenAPI sources, imports): the global `fetch` by default; tests and operators inject their own. */
export type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** The ports of work that runs outside a request, in transactions of its own (see `Context.defer`). */
export interface Ports {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly fetch: Fetch;
  /** How long one outbound fetch may take, body included, in milliseconds. */
  readonly fetchTimeoutMs: number;
  /** Where file bytes live. */
  readonly blobs: BlobStore;
  /** Data derived from revisions (links, search indexes), shared by every operation of the platform. */
  readonly derived: DerivedCache;
  /** Runs CPU-heavy jobs (job.ts), off the main thread where the platform has worker threads. */
  readonly workers: Workers;
  /** Reaches Git repositories (Git Sync's queued imports). */
  readonly gitTransport: GitTransport;
  /** Aborted when the platform closes, so that background work stops instead of holding the close. */
  readonly closing: AbortSignal;
}

/** Work an operation hands over to run after its transaction, e.g. fetching and processing an OpenAPI source. */
export type BackgroundTask = (ports: Ports) => Promise<void>;

/** Everything an operation may use: its transaction, its caller and the injected ports. */
export interface Context<Tx extends ReadTransaction = ReadTransaction> {
  readonly tx: Tx;
  readonly actor: Caller;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly urls: Urls;
  readonly secrets: Secrets;
  /** The time of the request, fixed for the whole operation, as an ISO 8601 string. */
  readonly now: string;
  /** Outbound HTTP. Never call it inside a transaction that waits on it: hand the work to `defer`. */
  readonly fetch: Fetch;
  /** How long one outbound fetch may take, in milliseconds. */
  readonly fetchTimeoutMs: number;
  /** Where file bytes live (content-addressed); written in an operation's `prepare`, read anywhere. */
  readonly blobs: BlobStore;
  /** Data derived from revisions (links, search indexes), computed once per revision (derived.ts). */
  readonly derived: DerivedCache;
  /** Runs CPU-heavy jobs (job.ts), off the main thread where the platform has worker threads. */
  readonly workers: Workers;
  /**
   * Runs `task` once this operation's transaction has committed (never when it fails); the response does
   * not wait for it. `platform.settle()` waits for every task started so far.
   */
  defer(task: BackgroundTask): void;
}

/** The context of an operation that writes. */
export type WriteContext = Context<WriteTransaction>;

/** What an operation's `prepare` step may use: no transaction of its own, but reads on demand. */
export interface PrepareContext {
  readonly actor: Caller;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly urls: Urls;
  readonly now: string;
  readonly fetch: Fetch;
  readonly fetchTimeoutMs: number;
  readonly blobs: BlobStore;
  readonly derived: DerivedCache;
  readonly workers: Workers;
  /** The fonts PDF exports embed (content/pdf/font-files.ts). */
  readonly pdfFonts: PdfFonts;
  /** Reaches Git repositories (Git Sync). */
  readonly gitTransport: GitTransport;
  /** Aborted when the platform closes: pass it to outbound work and jobs. */
  readonly closing: AbortSignal;
  /** Runs `fn` in a read transaction, e.g. to check permissions before outbound work. */
  read<T>(fn: (ctx: Context) => Promise<T>): Promise<T>;
}

/** Builds the URL helpers for a base URL such as `http://127.0.0.1:8080`. */
export function urlsFor(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    api: (path) => `${base}/v1${path}`,
    app: (path) => `${base}/app${path}`,
    published: (path) => `${base}/published${path}`,
  };
}
