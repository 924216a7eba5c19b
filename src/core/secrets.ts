import { SignJWT, jwtVerify } from 'jose';
import { TABLES, type SettingRecord } from './records.js';
import type { Store } from '../store/types.js';
import type { Ids } from './ids.js';

/** Signing keys; injected, or kept in the store so that signatures survive restarts. */
export interface Secrets {
  /** Signs the claims of a visitor as a JWT (HS256), valid for `ttlSeconds`. */
  signVisitorClaims(claims: Record<string, unknown>, subject: string, ttlSeconds: number, now: Date): Promise<string>;
  /** Verifies a JWT made by signVisitorClaims and returns its payload; throws when invalid. */
  verifyVisitorClaims(token: string, now: Date): Promise<Record<string, unknown>>;
  /** The HMAC-SHA-256 of some text under the signing key, as unpadded base64url (signed download URLs). */
  hmac(data: string): Promise<string>;
}

const ISSUER = 'docs-platform';

/** Secrets from one HMAC key. */
export function secretsFromKey(key: string): Secrets {
  const bytes = new TextEncoder().encode(key);
  let hmacKey: Promise<CryptoKey> | undefined;
  return {
    async hmac(data) {
      hmacKey ??= crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const signature = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey, new TextEncoder().encode(data)));
      let binary = '';
      for (const byte of signature) binary += String.fromCharCode(byte);
      return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    },
    async signVisitorClaims(claims, subject, ttlSeconds, now) {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setSubject(subject)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(bytes);
    },
    async verifyVisitorClaims(token, now) {
      const { payload } = await jwtVerify(token, bytes, { issuer: ISSUER, currentDate: now });
      return payload as Record<string, unknown>;
    },
  };
}

const KEY_SETTING = 'visitorClaimsKey';

/**
 * Secrets whose key lives in the store: loaded (or created) right away, then kept for the process.
 * Loading starts at once so that it is queued before any operation's write transaction; an operation
 * that awaited a first load from inside its own write transaction would wait for itself.
 */
export function secretsFromStore(store: Store, ids: Ids): Secrets {
  let secrets: Promise<Secrets> | undefined;
  const load = () =>
    (secrets ??= store
      .write(async (tx) => {
        const existing = (await tx.get(TABLES.settings, KEY_SETTING)) as SettingRecord | undefined;
        if (existing) return existing.value;
        const value = ids.secret();
        await tx.insert(TABLES.settings, { id: KEY_SETTING, value });
        return value;
      })
      .then(secretsFromKey)
      .catch((error) => {
        secrets = undefined;
        throw error;
      }));
  load().catch(() => undefined);
  return {
    signVisitorClaims: async (...args) => (await load()).signVisitorClaims(...args),
    verifyVisitorClaims: async (...args) => (await load()).verifyVisitorClaims(...args),
    hmac: async (data) => (await load()).hmac(data),
  };
}
