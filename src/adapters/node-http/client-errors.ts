import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorResponse, type PlainResponse } from '../plain.js';
import { requestIdOf } from '../request-id.js';
import { byteLength, type RequestLogger } from '../request-log.js';
import { latestResponse, trackLatestResponses } from './latest-response.js';

/** How long a connection that was answered this way may go on sending before it is cut. */
const LINGER_MS = 2_000;

/**
 * Makes a node:http server answer in the error shape, with `Connection: close`, where node would otherwise
 * answer for it with an empty body or drop the connection: a request it cannot parse (400, or 431 for a
 * request line and headers over its limit), one not received within headersTimeout or requestTimeout (408),
 * an Expect other than 100-continue (417), and CONNECT (501). serve() does this; an embedder's own server
 * does it with `answerClientErrors(http.createServer(createNodeListener(platform)))`. Each answer has an
 * X-Request-Id (the request's own when node read its headers, else a new one) and is logged to `logger`
 * (method `-`: node could not read one). Returns the server.
 */
export function answerClientErrors<T extends Server>(server: T, logger?: RequestLogger): T {
  /** An answer of node's own, with its request id, logged. */
  const answerOf = (status: number, message: string, method: string, requestId: string, headers: Record<string, string> = {}): PlainResponse & { body: string } => {
    const response = errorResponse(status, message, { ...headers, 'x-request-id': requestId });
    logger?.request({ requestId, method, route: null, status, durationMs: 0, bytes: byteLength(response.body) });
    return response;
  };
  // The latest response on each connection: a raw answer must not come before or in the middle of it.
  trackLatestResponses(server);
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // node's parser goes on failing on every further chunk of a connection it could not parse.
    if (answered.has(socket)) return;
    answered.add(socket);
    const [status, message] = explain(error, server);
    const answer = () => {
      if (error.code === 'ECONNRESET' || !socket.writable) socket.destroy();
      else answerRaw(socket, answerOf(status, message, '-', crypto.randomUUID()));
    };
    const response = latestResponse(socket);
    if (!response || response.writableFinished) answer();
    // A request after this one failed (pipelined): answer it once this one's response is out.
    else if (response.req.complete) response.once('close', answer);
    // This request failed (a timeout, a broken body): answer in its place, unless its response has begun.
    else if (!response.headersSent) answer();
    else socket.destroy();
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const { status, headers, body } = answerOf(417, `Expect: ${request.headers.expect} is not supported; only Expect: 100-continue is`, request.method ?? '-', requestIdOf(request.headers), {
      connection: 'close',
    });
    response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body!)) }).end(body);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) =>
    answerRaw(socket, answerOf(501, 'CONNECT is not supported: this server is not a proxy', 'CONNECT', requestIdOf(request.headers))),
  );
  return server;
}

/** The status and message for a request node could not take. */
function explain(error: NodeJS.ErrnoException & { reason?: string }, server: Server): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      // createServer's maxHeaderSize option, kept on the server (untyped in @types/node), else node's default.
      return [431, `The request line and headers are larger than ${(server as { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize} bytes`];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, `The request was not received in time: its headers within ${server.headersTimeout} ms, all of it within ${server.requestTimeout} ms`];
    case 'HPE_INVALID_URL':
      return [400, 'The request target is not a valid path: a raw space, control character or non-ASCII byte in it? Percent-encode it'];
    case 'HPE_INVALID_METHOD':
      return [400, 'The request method is not an HTTP method'];
    case 'HPE_INVALID_HEADER_TOKEN':
      return [400, 'A header name or value holds a character HTTP does not allow'];
    case 'HPE_INVALID_EOF_STATE':
      return [400, 'The client ended the connection in the middle of the request'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'The chunk extensions of the body are larger than node:http allows'];
    default:
      return [400, `The request is not valid HTTP/1.1: ${error.reason ?? error.code ?? error.message}`];
  }
}

/**
 * Writes a whole HTTP/1.1 response on a connection that node no longer serves, and closes it once the
 * client stops sending (or after LINGER_MS): closing while bytes still arrive resets the connection, and
 * the client, still writing, gets EPIPE or ECONNRESET instead of the answer.
 */
function answerRaw(socket: Duplex, { status, headers, body }: PlainResponse & { body: string }): void {
  const fields = { ...headers, 'content-length': String(Buffer.byteLength(body ?? '')), connection: 'close' };
  const head = Object.entries(fields).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body ?? ''}`);
  socket.resume(); // read on, into node's failed parser, which drops it
  const close = () => (socket.writableFinished ? socket.destroy() : socket.once('finish', () => socket.destroy()));
  if (socket.readableEnded) close();
  else socket.once('end', close);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
