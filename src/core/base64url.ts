/** Encodes bytes as unpadded base64url. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes unpadded base64url to bytes; throws on anything else. */
export function base64UrlToBytes(encoded: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new Error('not base64url');
  const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Encodes UTF-8 text as unpadded base64url. */
export const base64UrlEncode = (text: string): string => bytesToBase64Url(new TextEncoder().encode(text));

/** Decodes unpadded base64url to UTF-8 text; throws on anything else. */
export const base64UrlDecode = (encoded: string): string => new TextDecoder('utf-8', { fatal: true }).decode(base64UrlToBytes(encoded));
