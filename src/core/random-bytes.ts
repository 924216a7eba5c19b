/**
 * Bytes from the platform's secure random source (Web Crypto), drawn 4 KiB at a time: one call into the
 * platform per hundred ids rather than one per id (a thousand imported pages made ~3,000 calls, ~2.5 µs each, on
 * the thread that answers requests). Each byte is handed out once. The first draw happens on first use, never as
 * the module loads (Workers refuse random numbers outside a request).
 */
const pool = new Uint8Array(4096);
let next = pool.length;

/** The next secure random byte. */
export function randomByte(): number {
  if (next === pool.length) {
    crypto.getRandomValues(pool);
    next = 0;
  }
  return pool[next++];
}
