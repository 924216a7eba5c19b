import { base64UrlToBytes, bytesToBase64Url } from '../base64url.js';
import type { Secrets } from '../secrets.js';
import type { GitRemote } from './transport.js';

/**
 * The credentials of a synced repository, kept so that exports after each merge can reach it
 * (auto-export.ts). They are sealed with AES-GCM under a key derived from the platform's signing secret
 * (Secrets.hmac, as signed download URLs and reader keys are) and the space's id: the store holds no
 * credential in the clear, and a sealed value moved to another space does not open. Whoever has the
 * signing secret (DOCS_PLATFORM_SECRET, or the store's own) can open them, as they can sign.
 */

/** Sealed credentials: the nonce and the ciphertext, base64url. */
export interface SealedCredentials {
  readonly iv: string;
  readonly data: string;
}

/** The AES-GCM key of a space's credentials. */
async function keyOf(secrets: Secrets, spaceId: string): Promise<CryptoKey> {
  const material = base64UrlToBytes(await secrets.hmac(`git-sync-credentials\u0000${spaceId}`));
  return crypto.subtle.importKey('raw', material, { name: 'AES-GCM' }, false, ['encrypt', 'decrypt']);
}

/** Seals a remote's credentials for a space; undefined when it has none. */
export async function sealCredentials(secrets: Secrets, spaceId: string, remote: GitRemote): Promise<SealedCredentials | undefined> {
  if (remote.username === undefined && remote.password === undefined) return undefined;
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify({ username: remote.username, password: remote.password }));
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyOf(secrets, spaceId), plain));
  return { iv: bytesToBase64Url(iv), data: bytesToBase64Url(data) };
}

/** The remote at `url` with a space's sealed credentials opened; without them when they do not open (another secret). */
export async function remoteWith(secrets: Secrets, spaceId: string, url: string, sealed: SealedCredentials | undefined): Promise<GitRemote> {
  if (sealed === undefined) return { url };
  try {
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: base64UrlToBytes(sealed.iv) }, await keyOf(secrets, spaceId), base64UrlToBytes(sealed.data));
    const { username, password } = JSON.parse(new TextDecoder().decode(plain)) as { username?: string; password?: string };
    return { url, ...(username !== undefined && { username }), ...(password !== undefined && { password }) };
  } catch {
    return { url };
  }
}
