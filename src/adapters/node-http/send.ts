import type { ServerResponse } from 'node:http';
import { isBodyStream, type PlainResponse } from '../plain.js';
import { writeStream } from './send-stream.js';

/**
 * Sends an answer framed by Content-Length, which node leaves out after writeHead: the answer then leaves in
 * one write to the socket, where chunked encoding took a writev of four pieces (the headers with the chunk's
 * size, the body, its CRLF, the last chunk), the costliest call of a small answer. A text body goes as the
 * bytes it is encoded to once: given a string, node joins it to the headers and flattens and measures the
 * whole again (perf: the send's share of the server's CPU went from 27% to 24% for a GET of one member).
 * A body that comes in pieces goes chunked (send-stream.ts); a failure while it is made goes to `failed`.
 */
export function write(res: ServerResponse, response: PlainResponse, failed: (error: unknown) => void = () => {}): void {
  const { status, headers, cookies } = response;
  // The answer's own headers, completed in place: an answer is written once, and a copy of them cost more
  // than the rest of this function (a spread's copy gets a map of its own; see jsonHeaders() in pipeline.ts).
  const fields: Record<string, string | string[]> = headers;
  if (cookies?.length) fields['set-cookie'] = [...cookies];
  if (isBodyStream(response.body)) {
    res.writeHead(status, fields);
    void writeStream(res, response.body, failed);
    return;
  }
  const body = typeof response.body === 'string' ? Buffer.from(response.body) : response.body;
  if (body !== undefined && headers['content-length'] === undefined && status !== 204 && status !== 304) {
    fields['content-length'] = String(body.byteLength);
  }
  res.writeHead(status, fields);
  res.end(body);
}

/**
 * Runs sends at the end of the event loop's turn (setImmediate), together and in order, rather than each as
 * soon as its answer is ready. A send to a peer that sleeps in epoll wakes it, and on a virtual machine the
 * wake-up of another core is an interrupt the hypervisor delivers: it cost the server about 20 µs of CPU an
 * answer, more than the platform's own work for a small one (bench/README: the get-one case). Sent together,
 * the first answer of a turn wakes the client or proxy, and the others find it awake. An answer waits at
 * most for the rest of its turn: the other requests that arrived with it. Returns the function that queues
 * a send; a send must not throw.
 */
export function createTurnSender(): (send: () => void) => void {
  let queued: (() => void)[] = [];
  const flush = () => {
    const sends = queued;
    queued = [];
    for (const send of sends) send();
  };
  return (send) => {
    if (queued.push(send) === 1) setImmediate(flush);
  };
}
