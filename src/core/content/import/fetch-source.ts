import type { PrepareContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { FetchFailure, fetchBytes, fetchFailureMessage, type FetchedBytes } from '../../fetch-bytes.js';
import { MAX_IMPORT_BYTES } from './schemas.js';

/**
 * Fetching what an import reads, and telling whether it is what the request says it is. Every failure is a
 * 400 whose message starts with `url:`, before anything is stored; one that fetched nothing says only
 * "the URL could not be fetched" (fetch-bytes.ts).
 */

/** Downloads an import's source through the fetch port: 2xx, within the time limit, at most 10 MiB. */
export async function fetchSource(ctx: PrepareContext, url: string): Promise<FetchedBytes> {
  try {
    return await fetchBytes(ctx, url, MAX_IMPORT_BYTES);
  } catch (error) {
    if (error instanceof FetchFailure) throw badRequest(fetchFailureMessage('url', error, MAX_IMPORT_BYTES));
    throw error;
  }
}

/** UTF-8 text of some bytes (a leading byte order mark dropped); undefined when they are not text. */
export function decodeText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // NUL never occurs in text documents; it marks a binary file that happens to decode.
  return text.includes('\u0000') ? undefined : text;
}

/** Whether a media type says HTML. */
export const isHtmlType = (type: string | undefined): boolean => type === 'text/html' || type === 'application/xhtml+xml';

/** Whether a media type says nothing definite about text (absent, generic bytes, plain text). */
export const isUntypedText = (type: string | undefined): boolean =>
  type === undefined || type === 'application/octet-stream' || type === 'text/plain' || type === 'binary/octet-stream';

/** Whether a text opens like an HTML document (`<!doctype html>`, `<html>`, `<head>` or `<body>`, after comments). */
export const opensAsHtmlDocument = (text: string): boolean => /^\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(text);

/** The text of a fetched source, or a 400 saying it is not text. */
export function sourceText(url: string, fetched: FetchedBytes, expected: string): string {
  const text = decodeText(fetched.bytes);
  if (text === undefined) throw badRequest(`url: ${url} is not ${expected}: it is not UTF-8 text`);
  return text;
}
