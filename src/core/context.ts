import type { ReadTransaction, WriteTransaction } from '../store/types.js';
import type { Clock } from './clock.js';
import type { Ids } from './ids.js';
import type { UserRecord } from './records.js';
import type { Secrets } from './secrets.js';

/** The authenticated caller of an operation. */
export interface Actor {
  /** The user the request acts for. */
  readonly user: UserRecord;
}

/** Builds the absolute URLs that responses carry (`urls.location`, `urls.app`, ...). */
export interface Urls {
  /** The URL of an API path, e.g. api('/orgs/x') → https://host/v1/orgs/x. */
  api(path: string): string;
  /** The URL of a page of the application, e.g. app('/o/x'). */
  app(path: string): string;
}

/** Everything an operation may use: its transaction, its caller and the injected ports. */
export interface Context<Tx extends ReadTransaction = ReadTransaction> {
  readonly tx: Tx;
  readonly actor: Actor;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly urls: Urls;
  readonly secrets: Secrets;
  /** The time of the request, fixed for the whole operation, as an ISO 8601 string. */
  readonly now: string;
}

/** The context of an operation that writes. */
export type WriteContext = Context<WriteTransaction>;

/** Builds the URL helpers for a base URL such as `http://127.0.0.1:8080`. */
export function urlsFor(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    api: (path) => `${base}/v1${path}`,
    app: (path) => `${base}/app${path}`,
  };
}
