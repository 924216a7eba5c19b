import { noGitTransport, type GitTransport } from './git-sync/transport.js';
import { StoreUnavailableError, type Store } from '../store/types.js';
import { actorForToken, hasTokenForm, knownUserId } from './auth.js';
import { createMemoryBlobStore, type BlobStore } from './blobs.js';
import { systemClock, type Clock } from './clock.js';
import { createBackground } from './background.js';
import { collectBlobs, type BlobCollectionReport } from './blob-collection/collect.js';
import { noPdfFonts, type PdfFonts } from './pdf-fonts.js';
import { createDerivedCache } from './derived.js';
import { releaseLease, takeLease } from './leases.js';
import { callerOf, urlsFor, type Actor, type Caller, type BackgroundTask, type Context, type Fetch, type PrepareContext, type Urls } from './context.js';
import { FailAfterCommit, notFound, unauthorized, unavailable } from './errors.js';
import { randomIds, type Ids } from './ids.js';
import type { Operation } from './operation.js';
import { operations, type Operations } from './operations.js';
import { TABLES, type UserRecord } from './records.js';
import { routes } from './routes.js';
import { secretsFromKey, secretsFromStore, type Secrets } from './secrets.js';
import { purgeExpiredSpaces } from './spaces/trash.js';
import { upgradeShareKeys } from './sites/share-links/upgrade.js';
import { createMemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { RunContext, type ContextPorts } from './run-context.js';
import { createTokenUse } from './tokens/token-use.js';
import { addUser, initialize } from './setup/operator.js';
import { parseOrThrow } from './validate.js';
import { inlineWorkers } from './inline-workers.js';
import type { Workers } from './workers.js';

/** What a platform is made of; everything but the store has a real default. */
export interface PlatformOptions {
  /** Where records live: createMemoryStore() or await createJsonFileStore({ path }). */
  store: Store;
  /** The current time; default the system clock. */
  clock?: Clock;
  /** New ids and secrets; default secure random ones. */
  ids?: Ids;
  /** The key that signs visitor claims; default one created in the store on first start. */
  signingKey?: string;
  /**
   * The public base URL of the API, e.g. `https://docs.example.com`, for the URLs in responses.
   * Default: the origin each HTTP request came to, or `http://127.0.0.1:8080` for library calls.
   */
  baseUrl?: string;
  /**
   * Outbound HTTP (imports, files by URL, OpenAPI sources). The core has no default that reaches anything:
   * without one every outbound fetch fails ("the URL could not be fetched"). The Node entry (`docs-platform`)
   * defaults it to the outbound fetch that refuses inside addresses (src/outbound/fetch.ts). An injected
   * fetch is used as it is: it decides alone what may be reached.
   */
  fetch?: Fetch;
  /** How long one outbound fetch may take, body included, in milliseconds; default 30 seconds. */
  fetchTimeoutMs?: number;
  /**
   * Where file bytes (uploads, PDFs) live, content-addressed; default in memory. The bundled server keeps
   * them in a folder beside its JSON file (`createFolderBlobStore`).
   */
  blobs?: BlobStore;
  /**
   * How long bytes stay in the blob store after they were last stored, referenced or not, in milliseconds:
   * the blob collection's grace period (blob-collection/collect.ts says why); default one day.
   */
  blobGraceMs?: number;
  /**
   * How many pages' worth of values derived from revisions (links reports, search indexes) stay in memory,
   * least recently used evicted first; default 100,000 (DEFAULT_DERIVED_CAPACITY, see derived.ts).
   */
  derivedCapacity?: number;
  /**
   * Runs CPU-heavy jobs (parsing OpenAPI documents, rendering PDFs, unpacking imports, indexing spaces).
   * Default: in-process (`inlineWorkers`), which works in every runtime but holds the event loop while a job
   * runs. On Node, pass `createWorkerPool()` from `docs-platform/workers` (the bundled server does) so that
   * they run in worker threads. `close()` closes it.
   */
  workers?: Workers;
  /**
   * The fonts PDF exports embed for text beyond Western European (content/pdf/font-files.ts). The core's
   * default has none (the standard fonts alone); the Node entry (`docs-platform`) defaults to the Noto
   * fonts of its npm dependencies.
   */
  pdfFonts?: PdfFonts;
  /**
   * How Git Sync reaches repositories. Without one every Git operation fails; the Node entry
   * (`docs-platform`) defaults it to isomorphic-git over the outbound fetch (src/outbound/git-transport.ts).
   */
  gitTransport?: GitTransport;
  /**
   * Counts the requests of each client for rate limits (the adapters' `rateLimit` option); default in this
   * process's memory. Processes that share a PostgreSQL store share its limiter (`store.rateLimiter`).
   */
  rateLimiter?: RateLimiter;
  /** Receives errors that escape background work (the state it leaves is recovered later); default console.error. */
  onBackgroundError?: (error: unknown) => void;
}

/** The operations of the platform, bound to a caller: `await api.listMembers({ organizationId })`. */
export type Api = {
  [K in keyof Operations]: Operations[K] extends Operation<any, infer O, infer C> ? (input: C) => Promise<O> : never;
};

/** A platform: the operations over one store, with the ports they use. */
export interface Platform {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly secrets: Secrets;
  /** The base URL given in the options, if any. */
  readonly baseUrl: string | undefined;
  /** The URL helpers of responses to a request that came to `origin` (the base URL, when given, wins). */
  urls(origin?: string): Urls;
  /** The route table both adapters serve. */
  readonly routes: typeof routes;
  /** Where rate limits count requests (PlatformOptions.rateLimiter). */
  readonly rateLimiter: RateLimiter;
  /** Where jobs run (PlatformOptions.workers): the reader renders a long page through it. */
  readonly workers: Workers;
  /** Every operation by name. */
  readonly operations: Operations;
  /** The user a bearer token acts for, or null. */
  authenticate(token: string): Promise<Actor | null>;
  /** The operations acting as a user (the embedding app has authenticated it). */
  as(userId: string): Api;
  /** The operations acting for the holder of a token; rejects with 401 for an unknown token. */
  withToken(token: string): Promise<Api>;
  /** Runs an operation with an already validated input; `trace.userId` is set to the acting user's id. */
  run<I, O>(operation: Operation<I, O>, actor: Actor, input: I, origin?: string, trace?: Trace): Promise<O>;
  /**
   * Runs an operation with an already validated input for the holder of a bearer token, looked up in the
   * operation's own transaction (the HTTP pipeline's entry point: one transaction, not two); rejects with
   * 401 for an unknown token.
   */
  runWithToken<I, O>(operation: Operation<I, O>, token: string, input: I, origin?: string, trace?: Trace): Promise<O>;
  /** Creates an organization with its owner and a token (CLI `init`, first start). */
  initialize(options?: Parameters<typeof initialize>[1]): ReturnType<typeof initialize>;
  /** Adds a user to an organization and issues a token (CLI `user create`). */
  addUser(options: Parameters<typeof addUser>[1]): ReturnType<typeof addUser>;
  /**
   * Removes for good the spaces deleted more than 7 days ago, with everything that belongs to them,
   * and returns how many. The bundled server runs it periodically; reads hide such spaces anyway. One
   * process at a time sweeps (a lease in the store): another that tries meanwhile purges nothing (0).
   */
  purgeDeletedSpaces(): Promise<number>;
  /**
   * Removes from the blob store the bytes nothing references any more (files of failed batches and purged
   * spaces, PDFs whose URLs expired, documents of purged OpenAPI versions) that were last stored before
   * the grace period, and reports them; `dryRun` only reports. The bundled server runs it periodically.
   * One process at a time collects (a lease in the store): another that tries meanwhile gets null.
   */
  collectBlobs(options?: { dryRun?: boolean }): Promise<BlobCollectionReport | null>;
  /**
   * Resolves once the background work started so far (processing OpenAPI sources) has finished: responses
   * do not wait for it. For tests, and for an embedding app that wants to observe the outcome.
   */
  settle(): Promise<void>;
  /**
   * Stops background work (it is resumed later from the store) and jobs (requests waiting for one fail), closes
   * the `workers` port, then closes the store after pending writes are durable.
   */
  close(): Promise<void>;
}

/** What a caller learns of a run besides its result: the user it acted for, once known (for request logs). */
export interface Trace {
  userId?: string;
}

/** The lease of the trash sweep, and how long one holder keeps it without renewing. */
const SWEEP_LEASE = 'trash-sweep';
const SWEEP_LEASE_MS = 10 * 60 * 1000;

/** How many spaces one transaction of the sweep purges, so that a long trash does not hold the store. */
const PURGE_BATCH = 100;

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** The default time one outbound fetch may take. */
const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** The fetch of a platform given none: refuses every URL, so that nothing is reached unless chosen. */
const noOutboundFetch: Fetch = async () => {
  throw new TypeError('fetch failed', { cause: new Error('no outbound fetch was given to createPlatform') });
};

/** Creates a platform over a store. */
export function createPlatform(options: PlatformOptions): Platform {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const secrets = options.signingKey ? secretsFromKey(options.signingKey) : secretsFromStore(store, ids);
  const baseUrl = options.baseUrl;
  const fetchPort: Fetch = options.fetch ?? noOutboundFetch;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const onBackgroundError = options.onBackgroundError ?? ((error: unknown) => console.error('docs-platform: background work failed:', error));
  const blobs = options.blobs ?? createMemoryBlobStore();
  const derived = createDerivedCache(options.derivedCapacity);
  // Names this platform (this process) as the holder of leases on background work; not from `ids`, whose
  // sequence tests rely on.
  const holder = crypto.randomUUID();
  const workers = options.workers ?? inlineWorkers;
  const pdfFonts = options.pdfFonts ?? noPdfFonts;
  const gitTransport = options.gitTransport ?? noGitTransport;
  // What operations and background tasks both use; an operation also signs (secrets), a task has the store.
  const shared = { clock, ids, fetch: fetchPort, fetchTimeoutMs, blobs, derived, workers };
  const ports: ContextPorts = { ...shared, secrets };
  const background = createBackground({ store, ...shared, gitTransport }, onBackgroundError);
  // Each token's last use, written after the requests, at most once a minute per token.
  const tokenUse = createTokenUse(store, onBackgroundError);
  // Aborted on close, so that an operation's outbound `prepare` work stops instead of holding the close.
  const closing = new AbortController();

  // One set of URL helpers per base, made once: building them per request cost a few closures each time.
  // Bounded, because the origin comes from the request's Host header.
  const urlsByBase = new Map<string, Urls>();
  const urlsOf = (origin?: string): Urls => {
    const base = baseUrl ?? origin ?? DEFAULT_BASE_URL;
    let urls = urlsByBase.get(base);
    if (!urls) {
      if (urlsByBase.size >= 64) urlsByBase.clear();
      urlsByBase.set(base, (urls = urlsFor(base)));
    }
    return urls;
  };

  // Data earlier versions wrote is upgraded once, before the first operation runs; started at once, and
  // tried again by the next operation when it failed (a store that could not be reached).
  let upgraded = false;
  let upgrading: Promise<void> | undefined;
  const upgrade = () =>
    (upgrading ??= upgradeShareKeys(store, clock).then(
      () => void (upgraded = true),
      (error) => {
        upgrading = undefined;
        throw error;
      },
    ));
  upgrade().catch(() => undefined);

  /** Whom an operation runs for: a user already known, or the holder of a token to look up. */
  type RunAs = Actor | { readonly bearer: string };

  const run = <I, O>(operation: Operation<I, O>, runAs: RunAs, input: I, origin?: string, trace?: Trace): Promise<O> =>
    orUnavailable(() => (upgraded ? runOperation(operation, runAs, input, origin, trace) : upgrade().then(() => runOperation(operation, runAs, input, origin, trace))));

  /** The user a token acts for, read in a transaction; 401 for an unknown token. */
  async function actorOf(tx: Context['tx'], token: string): Promise<Actor> {
    return (await actorForToken(tx, token)) ?? invalidToken();
  }

  async function runOperation<I, O>(operation: Operation<I, O>, runAs: RunAs, input: I, origin?: string, trace?: Trace): Promise<O> {
    // Tasks deferred by the operation start only after its transaction committed.
    let deferred: BackgroundTask[] = [];
    const startDeferred = () => deferred.forEach((task) => background.start(task));
    const urls = urlsOf(origin);
    // The request's time: its operation's `now`, and its token's last use.
    const at = clock.now();
    // A token is looked up in the operation's transaction, unless the operation prepares outside one first.
    // (An operation of a route without authentication gets no caller.)
    const token = runAs && 'bearer' in runAs ? runAs.bearer : null;
    let known = token === null ? (runAs as Actor) : undefined;
    const preparing = operation.prepare !== undefined && (operation.prepares?.(input) ?? true);
    if (token !== null && preparing) known = await store.read((tx) => actorOf(tx, token));
    const contextOf = (tx: Context['tx'], actor: Caller): Context => new RunContext(tx, actor, urls, ports, deferred, at);
    let prepared: unknown;
    if (preparing && operation.prepare) {
      const caller = callerOf(known!);
      const prepare: PrepareContext = {
        actor: caller,
        clock,
        ids,
        urls,
        now: at.toISOString(),
        fetch: fetchPort,
        fetchTimeoutMs,
        blobs,
        derived,
        workers,
        pdfFonts,
        gitTransport,
        closing: closing.signal,
        read: (fn) => store.read((tx) => fn(contextOf(tx, caller))),
      };
      prepared = await operation.prepare(prepare, input);
    }
    let acted: Actor | undefined;
    // Not async itself: a known token's run is returned as it is, without a promise and a turn around it.
    const execute = (tx: Context['tx']): Promise<O> => {
      deferred = [];
      const userId = token !== null && !known ? knownUserId(token) : undefined;
      return userId !== undefined ? runAhead(tx, token!, userId) : executeAs(tx);
    };
    const executeAs = async (tx: Context['tx']) => {
      const actor = token === null ? known! : (known ?? (await actorOf(tx, token)));
      acted = actor;
      if (trace && actor) trace.userId = actor.user.id;
      return operation.run(contextOf(tx, actor && callerOf(actor)), input, prepared);
    };
    /**
     * Runs the operation for a token found before, whose user is known, alongside the token's reads: its
     * first reads leave with them, in one batch (one round trip of a networked store). What it did counts
     * only once the token proves valid and the user's: otherwise the request is a 401, and a write rolls back.
     */
    const runAhead = async (tx: Context['tx'], bearer: string, userId: string) => {
      // The token's own lookup (null when unknown), checked below: no async layer around it.
      const checked = actorForToken(tx, bearer);
      const caller: Caller = { userId, user: async () => ((await checked) ?? invalidToken()).user };
      // Started in this turn (no await before it), so that its first reads join the token's batch.
      let ran: Promise<O>;
      try {
        ran = operation.run(contextOf(tx, caller), input, prepared);
      } catch (error) {
        ran = Promise.reject(error);
      }
      const [outcome, verified] = await Promise.allSettled([ran, checked]);
      if (verified.status === 'rejected') throw verified.reason;
      // A token's user never changes: a token that names another is one that cannot be trusted.
      if (verified.value?.user.id !== userId) invalidToken();
      acted = verified.value;
      if (trace) trace.userId = userId;
      if (outcome.status === 'rejected') throw outcome.reason;
      return outcome.value;
    };
    const noteTokenUse = () => acted?.token && tokenUse.touch(acted.token, at);
    if (operation.access === 'read') {
      // A use is a use, answered with an error or not.
      let value: O;
      try {
        value = await store.read(execute);
      } finally {
        noteTokenUse();
      }
      startDeferred();
      return value;
    }
    const locks = operation.locks?.(input);
    // A token this process has not found valid is checked before the write takes its scopes: a made-up one
    // must not hold a scope (an organization, a space) that real writers then queue behind.
    if (locks && locks.length > 0 && token !== null && !known && knownUserId(token) === undefined) known = await store.read((tx) => actorOf(tx, token));
    const outcome = await store
      .write(
        async (tx) => {
          try {
            return { value: await execute(tx) };
          } catch (error) {
            if (error instanceof FailAfterCommit) return { error: error.error };
            throw error;
          }
        },
        locks && { locks },
      )
      .finally(noteTokenUse);
    startDeferred();
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  function bind(resolveActor: () => Promise<Actor>): Api {
    const api: Record<string, (input: unknown) => Promise<unknown>> = {};
    for (const [name, operation] of Object.entries(operations) as [string, Operation][]) {
      api[name] = async (input = {}) => run(operation, await resolveActor(), parseOrThrow(operation.input, input));
    }
    return api as Api;
  }

  const platform: Platform = {
    store,
    clock,
    ids,
    secrets,
    baseUrl,
    urls: urlsOf,
    routes,
    rateLimiter: options.rateLimiter ?? createMemoryRateLimiter(),
    workers,
    operations,
    // Before any operation runs, so outside `run`: a database that is down is a 503 here too. A string that is
    // no token's form opens no transaction: rate limits authenticate every token they have not seen.
    authenticate: (token) => (hasTokenForm(token) ? orUnavailable(() => store.read((tx) => actorForToken(tx, token))) : Promise.resolve(null)),
    as(userId) {
      return bind(async () => {
        const user = await orUnavailable(() => store.read(async (tx) => (await tx.get(TABLES.users, userId)) as UserRecord | undefined));
        if (!user) throw notFound(`No user ${userId}`);
        return { user };
      });
    },
    async withToken(token) {
      const actor = await platform.authenticate(token);
      if (!actor) throw unauthorized('The token is not valid');
      return bind(async () => actor);
    },
    run,
    runWithToken: (operation, token, input, origin, trace) => run(operation, { bearer: token }, input, origin, trace),
    initialize: (setup) => initialize({ store, clock, ids }, setup),
    addUser: (setup) => addUser({ store, clock, ids }, setup),
    async purgeDeletedSpaces() {
      // One sweep at a time over the store, whatever number of processes share it.
      if (!(await takeLease(store, SWEEP_LEASE, holder, clock.now(), SWEEP_LEASE_MS))) return 0;
      let total = 0;
      try {
        for (;;) {
          const now = clock.now().toISOString();
          const purged = await store.write((tx) => purgeExpiredSpaces(tx, now, PURGE_BATCH));
          total += purged;
          if (purged < PURGE_BATCH) return total;
          // A long trash: keep the lease while the sweep goes on.
          await takeLease(store, SWEEP_LEASE, holder, clock.now(), SWEEP_LEASE_MS);
        }
      } finally {
        await releaseLease(store, SWEEP_LEASE, holder);
      }
    },
    collectBlobs: (collection) => collectBlobs({ store, blobs, clock, holder }, { ...collection, graceMs: options.blobGraceMs }),
    settle: async () => {
      await background.settle();
      await tokenUse.settle();
    },
    async close() {
      closing.abort();
      await upgrading?.catch(() => undefined);
      await background.close();
      await tokenUse.settle();
      await workers.close();
      await store.close();
    },
  };
  return platform;
}

/** The answer to a token that is unknown, or does not act for whom it claims. */
function invalidToken(): never {
  throw unauthorized('The token is not valid');
}

/**
 * Runs calls on the store. A store that cannot be reached, or could not save a write and rolled it back,
 * is a 503 the caller may try again, not a bug (500).
 */
async function orUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof StoreUnavailableError ? unavailable(error.message, error.retryAfterSeconds) : error;
  }
}
