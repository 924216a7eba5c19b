import type { Fetch, Ports } from '../context.js';

/** The largest source document fetched from a URL: 5 MiB (a larger one is a `FETCH_ERROR`). */
export const MAX_SOURCE_BYTES = 5 * 1024 * 1024;

/** A fetched source text, or why there is none. */
export type FetchOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly code: 'FETCH_TIMEOUT' | 'FETCH_ERROR' };

/** The media types a source may come in, most likely first. */
const ACCEPT = 'application/json, application/yaml, application/x-yaml, text/yaml, text/plain;q=0.9, */*;q=0.8';

/** Reads a successful response's body as UTF-8 text, refusing more than MAX_SOURCE_BYTES. */
async function readBody(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_SOURCE_BYTES) throw new Error(`the source is ${declared} bytes, more than ${MAX_SOURCE_BYTES}`);
  if (!response.body) return response.text();
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > MAX_SOURCE_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the source is more than ${MAX_SOURCE_BYTES} bytes`);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** Fetches a URL and reads its body; any status but 2xx is a failure. */
async function download(fetch: Fetch, url: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal, redirect: 'follow', headers: { accept: ACCEPT } });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the source answered ${response.status}`);
  }
  return readBody(response);
}

/**
 * Fetches a specification's source through the injected fetch. The whole exchange, body included, must
 * end within `fetchTimeoutMs` (`FETCH_TIMEOUT`); a network failure, a non-2xx status or a body over
 * MAX_SOURCE_BYTES is a `FETCH_ERROR`. The race against the timer also bounds an injected fetch that
 * ignores its abort signal. The platform closing aborts the fetch too.
 */
export async function fetchSource(ports: Pick<Ports, 'fetch' | 'fetchTimeoutMs' | 'closing'>, url: string): Promise<FetchOutcome> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  ports.closing.addEventListener('abort', stop);
  if (ports.closing.aborted) stop();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      reject(new Error('timeout'));
    }, ports.fetchTimeoutMs);
  });
  try {
    return { ok: true, text: await Promise.race([download(ports.fetch, url, controller.signal), deadline]) };
  } catch {
    return { ok: false, code: timedOut ? 'FETCH_TIMEOUT' : 'FETCH_ERROR' };
  } finally {
    clearTimeout(timer);
    ports.closing.removeEventListener('abort', stop);
    // Releases a connection the source may still hold open after a failure.
    controller.abort();
  }
}
