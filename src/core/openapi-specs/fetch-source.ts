import type { Ports } from '../context.js';
import { FetchFailure, fetchBytes } from '../fetch-bytes.js';
import { MAX_SOURCE_BYTES } from './schemas.js';

/** A fetched source's bytes, or why there are none. */
export type FetchOutcome = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' };

/** The media types a source may come in, most likely first. */
const ACCEPT = 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.8';

/**
 * Fetches a specification's source through the injected fetch (fetch-bytes.ts). The whole exchange, body
 * included, must end within `fetchTimeoutMs` (`FETCH_TIMEOUT`); a network failure, a non-2xx status or a
 * body over MAX_SOURCE_BYTES is a `FETCH_ERROR`. The platform closing aborts the fetch too.
 */
export async function fetchSource(ports: Pick<Ports, 'fetch' | 'fetchTimeoutMs' | 'closing'>, url: string): Promise<FetchOutcome> {
  try {
    const { bytes } = await fetchBytes(ports, url, MAX_SOURCE_BYTES, { accept: ACCEPT });
    // Decoded by the job that parses it: a few milliseconds a megabyte that the main thread need not spend.
    return { ok: true, bytes };
  } catch (error) {
    return { ok: false, code: error instanceof FetchFailure && error.reason === 'timed-out' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR' };
  }
}
