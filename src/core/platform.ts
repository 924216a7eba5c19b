import type { Store } from '../store/types.js';
import { actorForToken } from './auth.js';
import { systemClock, type Clock } from './clock.js';
import { urlsFor, type Actor, type Context } from './context.js';
import { notFound, unauthorized } from './errors.js';
import { randomIds, type Ids } from './ids.js';
import type { Operation } from './operation.js';
import { operations, type Operations } from './operations.js';
import { TABLES, type UserRecord } from './records.js';
import { routes } from './routes.js';
import { secretsFromKey, secretsFromStore, type Secrets } from './secrets.js';
import { addUser, initialize } from './setup/operator.js';
import { parseOrThrow } from './validate.js';

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
  /** The route table both adapters serve. */
  readonly routes: typeof routes;
  /** Every operation by name. */
  readonly operations: Operations;
  /** The user a bearer token acts for, or null. */
  authenticate(token: string): Promise<Actor | null>;
  /** The operations acting as a user (the embedding app has authenticated it). */
  as(userId: string): Api;
  /** The operations acting for the holder of a token; rejects with 401 for an unknown token. */
  withToken(token: string): Promise<Api>;
  /** Runs an operation with an already validated input (the HTTP pipeline's entry point). */
  run<I, O>(operation: Operation<I, O>, actor: Actor, input: I, origin?: string): Promise<O>;
  /** Creates an organization with its owner and a token (CLI `init`, first start). */
  initialize(options?: Parameters<typeof initialize>[1]): ReturnType<typeof initialize>;
  /** Adds a user to an organization and issues a token (CLI `user create`). */
  addUser(options: Parameters<typeof addUser>[1]): ReturnType<typeof addUser>;
  /** Closes the store, after pending writes are durable. */
  close(): Promise<void>;
}

const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** Creates a platform over a store. */
export function createPlatform(options: PlatformOptions): Platform {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const secrets = options.signingKey ? secretsFromKey(options.signingKey) : secretsFromStore(store, ids);
  const baseUrl = options.baseUrl;

  async function run<I, O>(operation: Operation<I, O>, actor: Actor, input: I, origin?: string): Promise<O> {
    const execute = (tx: Context['tx']) => {
      const ctx: Context = {
        tx,
        actor,
        clock,
        ids,
        secrets,
        urls: urlsFor(baseUrl ?? origin ?? DEFAULT_BASE_URL),
        now: clock.now().toISOString(),
      };
      return operation.run(ctx, input);
    };
    return operation.access === 'write' ? store.write(execute) : store.read(execute);
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
    routes,
    operations,
    authenticate: (token) => store.read((tx) => actorForToken(tx, token)),
    as(userId) {
      return bind(async () => {
        const user = await store.read(async (tx) => (await tx.get(TABLES.users, userId)) as UserRecord | undefined);
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
    initialize: (setup) => initialize({ store, clock, ids }, setup),
    addUser: (setup) => addUser({ store, clock, ids }, setup),
    close: () => store.close(),
  };
  return platform;
}
