import type { Ports } from '../context.js';
import { FetchFailure, fetchChunks } from '../fetch-bytes.js';
import { MAX_SOURCE_BYTES } from './schemas.js';

/** A fetched source's bytes (as the chunks they came in), or why there are none. */
export type FetchOutcome = { readonly ok: true; readonly chunks: readonly Uint8Array[] } | { readonly ok: false; readonly code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' };

/** The media types a source may come in, most likely first. */
const ACCEPT = 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.8';

/**
 * Fetches a specification's source through the injected fetch (fetch-bytes.ts). The whole exchange, body
 * included, must end within `fetchTimeoutMs` (`FETCH_TIMEOUT`); a network failure, a non-2xx status or a
 * body over MAX_SOURCE_BYTES is a `FETCH_ERROR`. The platform closing aborts the fetch too.
 */
export async function fetchSource(ports: Pick<Ports, 'fetch' | 'fetchTimeoutMs' | 'closing'>, url: string): Promise<FetchOutcome> {
  try {
    const { chunks } = await fetchChunks(ports, url, MAX_SOURCE_BYTES, { accept: ACCEPT });
    // Joined and decoded by the job that parses it: joining 4 MB took 10-12 ms of one main-thread turn in the
    // heavy-work bench (a CPU profile), decoding a few milliseconds a megabyte.
    return { ok: true, chunks };
  } catch (error) {
    return { ok: false, code: error instanceof FetchFailure && error.reason === 'timed-out' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR' };
  }
}
