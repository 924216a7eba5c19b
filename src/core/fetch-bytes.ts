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

/** Why a fetch gave no bytes: a message for the caller, and whether time ran out. */
export class FetchFailure extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'FetchFailure';
  }
}

/**
 * How many bytes of a body are read between two pauses: chunks already buffered resolve as microtasks, so a
 * fast source of megabytes would otherwise be read (and parsed by the HTTP client) in one long turn.
 */
const BYTES_BETWEEN_PAUSES = 256 * 1024;

/** Reads a body up to `maxBytes`, refusing more (a FetchFailure saying so). */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new FetchFailure(`it is ${declared} bytes, more than ${maxBytes}`);
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
        throw new FetchFailure(`it is more than ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * Fetches a URL's bytes through the injected fetch: a 2xx answer within `fetchTimeoutMs` (body included)
 * of at most `maxBytes`. Anything else throws a FetchFailure whose message says what went wrong. The race
 * against the timer also bounds an injected fetch that ignores its abort signal.
 */
export async function fetchBytes(ports: FetchPorts, url: string, maxBytes: number, headers?: Record<string, string>): Promise<FetchedBytes> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  ports.closing.addEventListener('abort', stop);
  if (ports.closing.aborted) stop();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new FetchFailure(`no complete answer within ${ports.fetchTimeoutMs} ms`, true));
    }, ports.fetchTimeoutMs);
  });
  const download = async (): Promise<FetchedBytes> => {
    let response: Response;
    try {
      response = await ports.fetch(url, { signal: controller.signal, redirect: 'follow', ...(headers && { headers }) });
    } catch (error) {
      throw new FetchFailure(`it could not be fetched (${(error as Error)?.message ?? String(error)})`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new FetchFailure(`it answered ${response.status}`);
    }
    const type = response.headers.get('content-type')?.split(';')[0].trim().toLowerCase();
    return { bytes: await readLimited(response, maxBytes), ...(type ? { contentType: type } : {}) };
  };
  try {
    return await Promise.race([download(), deadline]);
  } finally {
    clearTimeout(timer);
    ports.closing.removeEventListener('abort', stop);
    controller.abort();
  }
}
