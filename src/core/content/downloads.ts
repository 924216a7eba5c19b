import * as v from 'valibot';
import { base64UrlDecode, base64UrlEncode } from '../base64url.js';
import { isBlobKey } from '../blobs.js';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { BinaryBody, BinaryResponse, readOperation } from '../operation.js';
import { uriComponent } from '../well-formed.js';

/**
 * Download URLs of blobs (file bytes, PDFs): `/v1/downloads/<token>/<name>`. The token names the blob and
 * the content type to serve it with, optionally an expiry, and carries an HMAC of them and of the file name
 * under the platform's signing key: the URL itself is the permission (an `<img src>` cannot send a token),
 * it cannot be forged, not even to offer the same bytes under another name, and it names nothing a caller
 * could not already read when it was made.
 */

/** What a download URL grants. */
export interface DownloadGrant {
  /** The blob key (SHA-256 hex). */
  readonly digest: string;
  readonly contentType: string;
  /** The file name shown at the end of the URL and offered to save as. */
  readonly name: string;
  /** When the URL stops working (absent: never; files of a revision never change). */
  readonly expiresAt?: string;
}

interface TokenPayload {
  readonly d: string;
  readonly t: string;
  readonly e?: number;
}

/** Makes the download URL of a blob. */
export async function downloadUrl(ctx: Pick<Context, 'urls' | 'secrets'>, grant: DownloadGrant): Promise<string> {
  const payload: TokenPayload = {
    d: grant.digest,
    t: grant.contentType,
    ...(grant.expiresAt !== undefined && { e: Math.floor(Date.parse(grant.expiresAt) / 1000) }),
  };
  const encoded = base64UrlEncode(JSON.stringify(payload));
  // Signed as it comes back decoded from the path: a lone surrogate is sent, and so read, as U+FFFD.
  const name = grant.name.toWellFormed();
  return ctx.urls.api(`/downloads/${encoded}.${await ctx.secrets.hmac(signed(encoded, name))}/${uriComponent(name)}`);
}

/** What a token's HMAC covers: its payload and the file name of the URL. */
const signed = (encoded: string, name: string) => `${encoded}/${name}`;

/** Compares two strings in time that does not depend on where they differ. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The grant of a token this platform signed for this file name and that has not expired; undefined for anything else. */
async function readToken(ctx: Context, token: string, name: string): Promise<TokenPayload | undefined> {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  const encoded = token.slice(0, dot);
  if (!sameText(token.slice(dot + 1), await ctx.secrets.hmac(signed(encoded, name)))) return undefined;
  let payload: TokenPayload;
  try {
    payload = JSON.parse(base64UrlDecode(encoded)) as TokenPayload;
  } catch {
    return undefined;
  }
  if (typeof payload.d !== 'string' || !isBlobKey(payload.d) || typeof payload.t !== 'string') return undefined;
  if (payload.e !== undefined && Date.parse(ctx.now) / 1000 > payload.e) return undefined;
  return payload;
}

/** A content type that cannot run in the API's origin: script-capable types are sent as plain bytes to download. */
const INLINE_SAFE = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|application\/pdf|text\/plain|audio\/[\w.+-]+|video\/[\w.+-]+)(;|$)/i;

/**
 * Serves the bytes a download URL names. Needs no token: the URL is the permission. An unknown, altered or
 * expired URL (another file name included), or bytes that are gone, is a 404. Images, PDFs, plain text, audio and video are shown
 * inline; anything else (HTML, SVG, ...) is sent as an attachment, and every answer forbids scripts.
 */
export const downloadFile = readOperation({
  name: 'downloadFile',
  summary: 'Download the bytes of a file or a PDF (the URL is the permission)',
  params: { token: v.pipe(v.string(), v.maxLength(2000, 'is too long')), name: v.pipe(v.string(), v.maxLength(1000, 'is too long')) },
  response: BinaryResponse,
  async run(ctx, { token, name }) {
    const missing = () => notFound('This download URL is not valid, or has expired');
    const payload = await readToken(ctx, token, name);
    if (!payload) throw missing();
    const bytes = await ctx.blobs.get(payload.d);
    if (!bytes) throw missing();
    const inline = INLINE_SAFE.test(payload.t);
    return new BinaryBody(bytes, {
      'content-type': payload.t,
      'content-length': String(bytes.length),
      'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${uriComponent(name)}`,
      'cache-control': payload.e === undefined ? 'private, max-age=31536000, immutable' : 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    }) as never;
  },
});
