import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Makes a closing server end its keep-alive connections. node's server.close() only closes the idle
 * ones: a connection whose request is in flight stays open for keepAliveTimeout after the response
 * (serving further requests on it), which holds a shutdown for seconds, longer while the client keeps
 * using it. Returns the switch to call on close: from then on every response says `Connection: close`.
 */
export function drainOnClose(server: Server): () => void {
  const unanswered = new Set<ServerResponse>();
  let closing = false;
  server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (closing) return void response.setHeader('connection', 'close');
    unanswered.add(response);
    response.once('close', () => unanswered.delete(response));
  });
  return () => {
    closing = true;
    for (const response of unanswered) {
      if (!response.headersSent) response.setHeader('connection', 'close');
      // Already written with keep-alive: close its connection as soon as it is idle.
      else response.once('close', () => server.closeIdleConnections());
    }
  };
}
