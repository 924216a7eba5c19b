/**
 * The digests of the last values digested, by their JSON text: a page asked again (what most reader requests
 * are) gives the same text, and reads its digest here instead of hashing it again. WebCrypto's digest is
 * asynchronous, a round trip through the thread pool, and took 13% of a cached page's time (the reader
 * bench's CPU profile). A pure function's memo: what it answers never changes, only how soon.
 */
const recent = new Map<string, Promise<string>>();
/** How many texts are kept, and the longest kept (longer ones, llms.txt's say, are digested every time). */
const RECENT_TEXTS = 256;
const RECENT_TEXT_LENGTH = 32 * 1024;

/** A short digest of what a page shows besides its revision (SHA-256, 96 bits, base64url): changes when any of it does. */
export function fingerprintOf(value: unknown): Promise<string> {
  const text = JSON.stringify(value);
  if (text.length > RECENT_TEXT_LENGTH) return digestOf(text);
  const known = recent.get(text);
  if (known) {
    // Least recently used first: a hit moves to the end.
    recent.delete(text);
    recent.set(text, known);
    return known;
  }
  const digest = digestOf(text);
  recent.set(text, digest);
  digest.catch(() => recent.delete(text));
  if (recent.size > RECENT_TEXTS) recent.delete(recent.keys().next().value!);
  return digest;
}

async function digestOf(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest.subarray(0, 12)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
