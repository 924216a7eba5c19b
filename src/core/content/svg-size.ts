/**
 * The width and height of an SVG image, for the `dimensions` of files (images.ts): from the `width` and
 * `height` of its root `<svg>` tag in absolute units (px, or none, pt, pc, in, cm, mm), else from its
 * `viewBox` (in proportion to one of them when only one is absolute). It reads the first SVG_HEAD_BYTES
 * bytes only, with no XML parser: what comes before the root tag (a declaration, comments, a doctype) is
 * skipped, entities are never expanded (a value that holds one counts as absent), and anything else
 * (`em`, `%`, a root tag cut off, no `<svg`) gives none.
 */

/** How far into the file the root tag must end. */
export const SVG_HEAD_BYTES = 16 * 1024;

/** The largest side taken as a size: beyond it, the file says something no layout uses. */
const MAX_SIDE = 100_000;

/** CSS pixels per unit. */
const UNITS: Record<string, number> = { '': 1, px: 1, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

const LENGTH = /^\s*(\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?\s*([a-z]*)\s*$/i;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Where the root tag starts: after the prolog (declaration, comments, processing instructions, doctype). */
function rootStart(text: string): number | undefined {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at])) at++;
    if (text.startsWith('<?', at)) at = after(text, '?>', at);
    else if (text.startsWith('<!--', at)) at = after(text, '-->', at);
    else if (/^<!doctype/i.test(text.slice(at, at + 9))) {
      // An internal subset (entity declarations) ends with `]>`: skipped, never read.
      const subset = text.indexOf('[', at);
      const close = text.indexOf('>', at);
      at = subset >= 0 && subset < close ? after(text, ']>', subset) : after(text, '>', at);
    } else return text.startsWith('<', at) ? at : undefined;
    if (at < 0) return undefined;
  }
}

/** The index after `end` searched from `from`, or -1. */
function after(text: string, end: string, from: number): number {
  const found = text.indexOf(end, from);
  return found < 0 ? -1 : found + end.length;
}

/** A length in CSS pixels, or undefined for a relative one, an entity, or none. */
function pixels(value: string | undefined): number | undefined {
  if (value === undefined || value.includes('&')) return undefined;
  const match = LENGTH.exec(value);
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const number = Number(value.trim().slice(0, value.trim().length - match[2].length)) * unit;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** A viewBox's width and height, or undefined. */
function viewBox(value: string | undefined): { width: number; height: number } | undefined {
  if (value === undefined || value.includes('&')) return undefined;
  const parts = value.trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite) || parts[2] <= 0 || parts[3] <= 0) return undefined;
  return { width: parts[2], height: parts[3] };
}

/** Whether bytes may be an SVG: text whose first thing is a tag (a BOM and white space allowed before). */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return bytes[at] === 0x3c;
}

/** An SVG's size in CSS pixels, rounded (see the module comment), or undefined. */
export function svgDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, SVG_HEAD_BYTES));
  const body = text.replace(/^\uFEFF/, '');
  const start = rootStart(body);
  if (start === undefined || !/^<svg[\s>/]/i.test(body.slice(start, start + 5))) return undefined;
  const end = body.indexOf('>', start);
  if (end < 0) return undefined;
  const attributes = new Map<string, string>();
  for (const match of body.slice(start + 4, end).matchAll(ATTRIBUTE)) if (!attributes.has(match[1])) attributes.set(match[1], match[2] ?? match[3]);
  let width = pixels(attributes.get('width'));
  let height = pixels(attributes.get('height'));
  const box = viewBox(attributes.get('viewBox'));
  if (box) {
    if (width === undefined && height === undefined) [width, height] = [box.width, box.height];
    else if (width === undefined) width = (height! * box.width) / box.height;
    else if (height === undefined) height = (width * box.height) / box.width;
  }
  if (width === undefined || height === undefined) return undefined;
  const sized = { width: Math.round(width), height: Math.round(height) };
  return sized.width >= 1 && sized.height >= 1 && sized.width <= MAX_SIDE && sized.height <= MAX_SIDE ? sized : undefined;
}
