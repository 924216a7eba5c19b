import { looksLikeSvg, svgDimensions } from './svg-size.js';

/**
 * The width and height of an image from its first bytes, for the `dimensions` of files: PNG, GIF, JPEG,
 * WebP (lossy, lossless, extended) and SVG (svg-size.ts). Anything else, or a truncated header, has none.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
  const sized = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  if (bytes.length >= 24 && ascii(1, 3) === 'PNG' && ascii(12, 4) === 'IHDR') return sized(view.getUint32(16), view.getUint32(20));
  if (bytes.length >= 10 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return sized(view.getUint16(6, true), view.getUint16(8, true));
  if (bytes.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return webp(bytes, view, ascii);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes, view);
  if (looksLikeSvg(bytes)) return svgDimensions(bytes);
  return undefined;
}

function webp(bytes: Uint8Array, view: DataView, ascii: (at: number, length: number) => string) {
  const chunk = ascii(12, 4);
  if (chunk === 'VP8X') return { width: 1 + (bytes[24] | (bytes[25] << 8) | (bytes[26] << 16)), height: 1 + (bytes[27] | (bytes[28] << 8) | (bytes[29] << 16)) };
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** Walks JPEG segments to the first start-of-frame marker, which holds the size. */
function jpeg(bytes: Uint8Array, view: DataView) {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = view.getUint16(at + 2);
    // SOF0..SOF15 but DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    at += 2 + length;
  }
  return undefined;
}
