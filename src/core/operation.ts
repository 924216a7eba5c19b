import * as v from 'valibot';
import type { ScopeLock } from '../store/types.js';
import type { Context, PrepareContext, WriteContext } from './context.js';

/** The entries of an object schema: field name → schema. */
export type Entries = v.ObjectEntries;

/** The typed input of an operation: its path, query and body fields in one object. */
export type InputOf<P extends Entries, Q extends Entries, B extends Entries> = v.InferOutput<v.ObjectSchema<P & Q & B, undefined>>;

/** What a caller passes: like InputOf, but fields with defaults may be left out. */
export type CallerInputOf<P extends Entries, Q extends Entries, B extends Entries> = v.InferInput<v.ObjectSchema<P & Q & B, undefined>>;

/**
 * An operation: one named thing the platform does, with the schemas of its input and its response.
 * It runs inside one store transaction (`access`), checks its own permissions and never sees HTTP.
 * The same definition serves the library (`platform.as(user).listMembers(...)`) and the HTTP routes.
 */
export interface Operation<I = any, O = any, C = I> {
  /** The name, e.g. `listMembers`; the library method and the OpenAPI operationId. */
  readonly name: string;
  /** One line saying what it does. */
  readonly summary: string;
  /** `read` runs in a read transaction, `write` in a write transaction. */
  readonly access: 'read' | 'write';
  /** Fields taken from the path. */
  readonly params: Entries;
  /** Fields taken from the query string. */
  readonly query: Entries;
  /** Fields taken from the JSON body; null when the operation takes no body. */
  readonly body: Entries | null;
  /** The schema of the response body; null when the response has no content. */
  readonly response: v.GenericSchema | null;
  /**
   * Work done before the transaction, outside it (fetching URLs, storing blobs): its result is `run`'s
   * third argument. Absent for most operations.
   */
  readonly prepare?: (ctx: PrepareContext, input: I) => Promise<unknown>;
  /**
   * Whether this input has work for `prepare` (absent: always). When it has none, `prepare` does not run and
   * `run` gets undefined: the caller's token is then looked up in the operation's transaction, not in a
   * read transaction of its own before it (two round trips fewer on PostgreSQL).
   */
  readonly prepares?: (input: I) => boolean;
  /**
   * The scopes a write operation locks (src/core/scopes.ts), derived from its validated input before its
   * transaction starts: the store takes them first (Store.write's `locks`), so that a networked store does
   * not run its first attempt again to take a lock asked for after the token's reads. `run` still locks each
   * where its decision depends on it. Only scopes it always takes: one declared and not needed queues it for
   * nothing.
   */
  readonly locks?: (input: I) => readonly ScopeLock[];
  /** Does the work. */
  readonly run: (ctx: any, input: I, prepared?: any) => Promise<O>;
  /** The schema of the whole input, for library calls: takes what a caller passes (C), gives I. */
  readonly input: v.GenericSchema<C, I>;
  /**
   * True for an operation that runs a CPU-heavy job (an import, a PDF, OpenAPI processing): rate limits
   * charge it RATE_COSTS.heavy.
   */
  readonly heavy?: boolean;
}

interface Definition<P extends Entries, Q extends Entries, B extends Entries, R extends v.GenericSchema | null, A, X = undefined> {
  name: string;
  summary: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** A CPU-heavy job (see Operation.heavy). */
  heavy?: boolean;
  /**
   * Outbound work that must not hold a transaction (a write transaction blocks every other write): it
   * runs first, may check permissions through `ctx.read`, and hands its result to `run`, which checks
   * everything again inside its transaction.
   */
  prepare?: (ctx: PrepareContext, input: InputOf<P, Q, B>) => Promise<X>;
  /** The scopes it locks, from its input (see Operation.locks; write operations only). */
  locks?: (input: InputOf<P, Q, B>) => readonly ScopeLock[];
  /** Whether this input has work for `prepare` (see Operation.prepares); without, `run` gets undefined, so X includes it. */
  prepares?: (input: InputOf<P, Q, B>) => boolean;
  run: (ctx: A, input: InputOf<P, Q, B>, prepared: NoInfer<X>) => Promise<R extends v.GenericSchema ? v.InferInput<R> : void>;
}

type ResponseOf<R> = R extends v.GenericSchema ? v.InferInput<R> : void;

/** Defines an operation that only reads. */
export function readOperation<
  P extends Entries = {},
  Q extends Entries = {},
  B extends Entries = {},
  R extends v.GenericSchema | null = null,
  X = undefined,
>(definition: Definition<P, Q, B, R, Context, X>): Operation<InputOf<P, Q, B>, ResponseOf<R>, CallerInputOf<P, Q, B>> {
  return build('read', definition);
}

/** Defines an operation that writes. */
export function writeOperation<
  P extends Entries = {},
  Q extends Entries = {},
  B extends Entries = {},
  R extends v.GenericSchema | null = null,
  X = undefined,
>(definition: Definition<P, Q, B, R, WriteContext, X>): Operation<InputOf<P, Q, B>, ResponseOf<R>, CallerInputOf<P, Q, B>> {
  return build('write', definition);
}

function build<I, O, C>(access: 'read' | 'write', definition: Definition<any, any, any, any, any, any>): Operation<I, O, C> {
  const params = definition.params ?? {};
  const query = definition.query ?? {};
  const body = definition.body ?? null;
  return {
    name: definition.name,
    summary: definition.summary,
    access,
    params,
    query,
    body,
    response: definition.response,
    ...(definition.prepare && { prepare: definition.prepare as Operation<I, O>['prepare'] }),
    ...(definition.prepares && { prepares: definition.prepares as Operation<I, O>['prepares'] }),
    ...(definition.locks && { locks: definition.locks as Operation<I, O>['locks'] }),
    ...(definition.heavy && { heavy: true }),
    run: definition.run as Operation<I, O>['run'],
    input: v.object({ ...params, ...query, ...(body ?? {}) }) as unknown as v.GenericSchema<C, I>,
  };
}

/**
 * A response body that is bytes, not JSON (file downloads): an operation returns it and the pipeline
 * sends the bytes with these headers as they are. Its route declares BinaryResponse as its schema.
 */
export class BinaryBody {
  constructor(
    /** The bytes to send. */
    readonly bytes: Uint8Array,
    /** The response headers, `content-type` first of all. */
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

/** The response schema of an operation that answers a BinaryBody: the bytes, seen as text by a checker. */
export const BinaryResponse = v.pipe(v.string(), v.description('The bytes of the file, with their own content type'));

/** One endpoint: a method and a path mapped onto an operation, with its success status. */
export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path with `{param}` placeholders, starting with `/v1`. */
  readonly path: string;
  readonly operation: Operation;
  /** The status of a successful response: 200, 201, 204 or 205. */
  readonly status: 200 | 201 | 204 | 205;
  /** True for endpoints that are not in the specification (taken from the public API or our own). */
  readonly extension?: boolean;
  /** False for the few endpoints that answer without a token. */
  readonly authenticated?: boolean;
  /**
   * For a 201 whose body has no `urls.location`: the API path (after `/v1`) of what was made, sent as the
   * `Location` header (an import's new revision).
   */
  readonly location?: (input: any, result: any) => string;
}

/** Shorthand for a route entry. */
export function route(
  method: Route['method'],
  path: string,
  operation: Operation,
  status: Route['status'],
  options: Pick<Route, 'extension' | 'authenticated' | 'location'> = {},
): Route {
  return { method, path, operation, status, ...options };
}
