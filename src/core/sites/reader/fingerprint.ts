/** A short digest of what a page shows besides its revision (SHA-256, 96 bits, base64url): changes when any of it does. */
export async function fingerprintOf(value: unknown): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(value))));
  let binary = '';
  for (const byte of digest.subarray(0, 12)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
