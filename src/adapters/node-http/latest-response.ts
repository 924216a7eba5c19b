import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** Where a connection keeps its latest response, and where a server notes that it keeps them. */
const LATEST = Symbol('latest response');
const TRACKING = Symbol('tracks latest responses');

type Tracked = Duplex & { [LATEST]?: ServerResponse };

/**
 * Makes each connection of the server keep its latest response, for latestResponse() (once per server,
 * however many ask). A property of the connection, not a WeakMap from connections: an old WeakMap's entry
 * holding each request's response kept it past young collections, which then cost more.
 */
export function trackLatestResponses(server: Server): void {
  const marked = server as Server & { [TRACKING]?: true };
  if (marked[TRACKING]) return;
  marked[TRACKING] = true;
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    (request.socket as Tracked)[LATEST] = response;
  });
}

/** The latest response on a connection of a server that trackLatestResponses() was called on; undefined before its first request. */
export function latestResponse(socket: Duplex): ServerResponse | undefined {
  return (socket as Tracked)[LATEST];
}
