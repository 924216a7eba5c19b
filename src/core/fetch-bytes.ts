import type { Fetch } from './context.js';
import { pause } from './pause.js';

/** What fetching bytes needs: the fetch port, its time limit, and the platform's closing signal. */
export interface FetchPorts {
  readonly fetch: Fetch;
  readonly fetchTimeoutMs: number;
  readonly closing: AbortSignal;
}

/** Bytes fetched from a URL, with the type the server gave them. */
export interface FetchedBytes {
  readonly bytes: Uint8Array;
  /** The media type of the response, without parameters (`image/png`), if it said one. */
  readonly contentType?: string;
}

/** Bytes fetched from a URL as the chunks they came in, with the type the server gave them. */
export interface FetchedChunks {
  readonly chunks: readonly Uint8Array[];
  /** As FetchedBytes says. */
  readonly contentType?: string;
}

/**
 * What callers are told of a fetch that gave no bytes, whatever the cause: a refused address, a name that
 * does not resolve, a closed port, an error status or a timeout all read the same, so that answers cannot
 * map what lies behind the server (which inside addresses exist, which ports are open).
 */
export const COULD_NOT_FETCH = 'the URL could not be fetched';

/**
 * Why a fetch gave no bytes: it failed (the caller says COULD_NOT_FETCH), ran out of time (the same to
 * callers; OpenAPI processing records it as FETCH_TIMEOUT), or answered more than the limit. The cause
 * stays on the failure (for code that catches it and for debugging), never in an answer.
 */
export class FetchFailure extends Error {
  constructor(
    readonly reason: 'failed' | 'timed-out' | 'too-large',
    options?: { cause?: unknown },
  ) {
    super(`the fetch ${reason === 'too-large' ? 'answered too much' : reason === 'timed-out' ? 'timed out' : 'failed'}`, options);
    this.name = 'FetchFailure';
  }
}

/** What a caller says of a failure for the field that gave the URL (`url`, `changes[0].files[1].url`). */
export function fetchFailureMessage(field: string, failure: FetchFailure, maxBytes: number): string {
  return failure.reason === 'too-large' ? `${field}: the URL's answer is more than ${maxBytes} bytes` : `${field}: ${COULD_NOT_FETCH}`;
}

/**
 * How many bytes of a body are read between two pauses: chunks already buffered resolve as microtasks, so a
 * fast source of megabytes would otherwise be read (and parsed by the HTTP client) in one long turn.
 */
const BYTES_BETWEEN_PAUSES = 256 * 1024;

/** Reads a body up to `maxBytes`, refusing more (a `too-large` FetchFailure). */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  return joinBytes(await readLimitedChunks(response, maxBytes));
}

/**
 * Reads a body up to `maxBytes` as the chunks it came in, refusing more (a `too-large` FetchFailure). For a
 * body that a job reads (in a worker thread): joining megabytes into one array here is main-thread time the
 * job can spend instead, and chunks that each own their buffer move to the thread without a copy.
 */
export async function readLimitedChunks(response: Response, maxBytes: number): Promise<Uint8Array[]> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new FetchFailure('too-large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (Math.floor((size + value.byteLength) / BYTES_BETWEEN_PAUSES) > Math.floor(size / BYTES_BETWEEN_PAUSES)) await pause();
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new FetchFailure('too-large');
      }
      chunks.push(value);
    }
  }
  return chunks;
}

/** The bytes of chunks, one after the other, in one array. */
export function joinBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Fetches a URL's bytes through the injected fetch: a 2xx answer within `fetchTimeoutMs` (body included)
 * of at most `maxBytes`. Anything else throws a FetchFailure, the same for every cause but time and size.
 */
export async function fetchBytes(ports: FetchPorts, url: string, maxBytes: number, headers?: Record<string, string>): Promise<FetchedBytes> {
  const { chunks, contentType } = await fetchChunks(ports, url, maxBytes, headers);
  return { bytes: joinBytes(chunks), ...(contentType ? { contentType } : {}) };
}

/**
 * Fetches a URL's bytes as fetchBytes does, as the chunks they came in (readLimitedChunks says why). The race
 * against the timer also bounds an injected fetch that ignores its abort signal.
 */
export async function fetchChunks(ports: FetchPorts, url: string, maxBytes: number, headers?: Record<string, string>): Promise<FetchedChunks> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  ports.closing.addEventListener('abort', stop);
  if (ports.closing.aborted) stop();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new FetchFailure('timed-out'));
    }, ports.fetchTimeoutMs);
  });
  const download = async (): Promise<FetchedChunks> => {
    let response: Response;
    try {
      response = await ports.fetch(url, { signal: controller.signal, redirect: 'follow', ...(headers && { headers }) });
    } catch (error) {
      throw new FetchFailure('failed', { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FetchFailure('failed', { cause: new Error(`answered ${response.status}`) });
    }
    const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
    try {
      return { chunks: await readLimitedChunks(response, maxBytes), ...(type ? { contentType: type } : {}) };
    } catch (error) {
      // A body cut short (a reset connection) fails like the rest.
      throw error instanceof FetchFailure ? error : new FetchFailure('failed', { cause: error });
    }
  };
  try {
    return await Promise.race([download(), deadline]);
  } finally {
    clearTimeout(timer);
    ports.closing.removeEventListener('abort', stop);
    controller.abort();
  }
}
