import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { GitHttpRequest, GitHttpResponse } from 'isomorphic-git';
import type { Fetch } from '../core/context.js';
import { GitTransportError } from '../core/git-sync/transport.js';

/**
 * Git's HTTP, carried between the thread that does a Git operation's object work (a job, git-jobs.ts) and
 * the outbound fetch on the platform's side: the fetch is a port (the outbound filter, DOCS_PLATFORM_FETCH_ALLOW)
 * that cannot cross threads, so the job's HTTP client posts each request on a MessagePort and the platform's
 * side sends it through that fetch, streaming the answer back in chunks. Bodies move between threads
 * (transferred), they are never copied into JSON. The same port works in-process when jobs run inline.
 */

/** A request from the job's side. */
interface RelayRequest {
  readonly id: number;
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array<ArrayBuffer>;
}

/** What the platform's side answers to a request: its head, its body's chunks, then its end or a failure. */
type RelayAnswer =
  | { readonly id: number; readonly kind: 'head'; readonly status: number; readonly statusText: string; readonly headers: Record<string, string> }
  | { readonly id: number; readonly kind: 'chunk'; readonly chunk: Uint8Array }
  | { readonly id: number; readonly kind: 'end' }
  | { readonly id: number; readonly kind: 'unreachable'; readonly reason: string };

/** A request that never reached the server, or whose answer broke off: why, as the outbound fetch said it. */
export class UnreachableError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnreachableError';
  }
}

/** Why a fetch failed, for people: the outbound filter's refusal (the cause of fetch's TypeError), or the network's. */
function reasonOf(error: unknown): string {
  const cause = error instanceof TypeError ? (error.cause as Error | undefined) : undefined;
  return cause?.message ?? (error as Error | undefined)?.message ?? String(error);
}

/** The platform's side of a relay: the port to hand to a job, and how to end it once the job is done. */
export interface FetchRelay {
  readonly port: MessagePort;
  close(): void;
}

/**
 * Serves the requests a job posts on the returned port through `fetch`. Past `maxTransferBytes` received in
 * all, an answer is cut off (the job's client says why), so that a repository too large is not read whole.
 */
export function relayFetch(fetch: Fetch, maxTransferBytes: number): FetchRelay {
  const { port1: ours, port2: theirs } = new MessageChannel();
  const stop = new AbortController();
  let received = 0;
  const answer = (message: RelayAnswer, transfer: ArrayBuffer[] = []) => {
    if (!stop.signal.aborted) ours.postMessage(message, transfer);
  };
  ours.on('message', async ({ id, url, method, headers, body }: RelayRequest) => {
    try {
      const response = await fetch(url, { method, headers, ...(body !== undefined && { body }), signal: stop.signal });
      answer({ id, kind: 'head', status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers) });
      for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
        // A fresh copy moves to the other thread whole, whatever buffer the stream's chunk is a view of.
        const copy = new Uint8Array(chunk);
        answer({ id, kind: 'chunk', chunk: copy }, [copy.buffer]);
        received += chunk.length;
        if (received > maxTransferBytes) {
          await response.body?.cancel().catch(() => undefined);
          return answer({ id, kind: 'unreachable', reason: `the repository sends more than ${maxTransferBytes} bytes` });
        }
      }
      answer({ id, kind: 'end' });
    } catch (error) {
      answer({ id, kind: 'unreachable', reason: reasonOf(error) });
    }
  });
  return {
    port: theirs,
    close() {
      stop.abort();
      ours.close();
    },
  };
}

/** The chunks of one answer's body as they come: an async iterator fed by the port. */
function bodyQueue() {
  const chunks: Uint8Array[] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  async function* body(): AsyncIterableIterator<Uint8Array> {
    for (;;) {
      if (chunks.length > 0) yield chunks.shift()!;
      else if (failure) throw failure;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  return {
    body: body(),
    push: (chunk: Uint8Array) => (chunks.push(chunk), poke()),
    end: () => ((ended = true), poke()),
    fail: (error: Error) => ((failure = error), poke()),
  };
}

/** Collects a request body (chunks) into one byte array that can move to the other thread. */
async function collect(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array> | undefined): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (chunks === undefined) return undefined;
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return new Uint8Array(Buffer.concat(parts));
}

/** isomorphic-git's HTTP client that counts what the server sends, and says when it passed the limit. */
export interface RelayedHttpClient {
  request(request: GitHttpRequest): Promise<GitHttpResponse>;
  overLimit(): boolean;
  /** Ends the job's side of the relay. */
  close(): void;
}

/**
 * The job's side: isomorphic-git's HTTP client over the port of a relay (relayFetch), counting what the
 * server sends against the limit. Past it the body fails, and `overLimit` says so (isomorphic-git may report
 * the broken body its own way).
 */
export function relayedHttpClient(port: MessagePort, maxTransferBytes: number): RelayedHttpClient {
  const waiting = new Map<number, (answer: RelayAnswer) => void>();
  let next = 0;
  let received = 0;
  port.on('message', (answer: RelayAnswer) => waiting.get(answer.id)?.(answer));
  return {
    overLimit: () => received > maxTransferBytes,
    close: () => port.close(),
    async request({ url, method = 'GET', headers = {}, body }: GitHttpRequest): Promise<GitHttpResponse> {
      const id = next++;
      const bytes = await collect(body);
      const queue = bodyQueue();
      return new Promise<GitHttpResponse>((resolve, reject) => {
        let started = false;
        waiting.set(id, (answer) => {
          if (answer.kind === 'head') {
            started = true;
            resolve({ url, method, statusCode: answer.status, statusMessage: answer.statusText, headers: answer.headers, body: queue.body });
          } else if (answer.kind === 'chunk') {
            received += answer.chunk.length;
            if (received > maxTransferBytes) queue.fail(new GitTransportError(`the repository sends more than ${maxTransferBytes} bytes`));
            else queue.push(answer.chunk);
          } else {
            waiting.delete(id);
            if (answer.kind === 'end') queue.end();
            else if (started) queue.fail(new UnreachableError(answer.reason));
            else reject(new UnreachableError(answer.reason));
          }
        });
        const request: RelayRequest = { id, url, method, headers, ...(bytes !== undefined && { body: bytes }) };
        port.postMessage(request, bytes === undefined ? [] : [bytes.buffer]);
      });
    },
  };
}
