import { readLimited } from '../../fetch-bytes.js';

/**
 * Which image bytes a PDF may embed. pdfkit trusts what it is given: a PNG with a bad length loops or
 * reads past its end, and a PNG whose compressed pixels are corrupt throws from an asynchronous callback
 * (an uncaught error, not a rejected promise). Files are whatever users uploaded, so every image is checked
 * here first, completely: a PNG is decompressed and its scanlines checked exactly as pdfkit will read them.
 * Anything else is shown as its alt text.
 */

/** The largest image embedded, in pixels (e.g. 4096 x 4096): bigger ones would take seconds and hundreds of MB to decode. */
export const MAX_IMAGE_PIXELS = 16 * 1024 * 1024;

/** The size of an image that pdfkit can embed safely. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** The size of a PNG or JPEG that pdfkit can embed safely; undefined for anything else. */
export async function embeddableImage(bytes: Uint8Array): Promise<ImageSize | undefined> {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return png(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpeg(bytes);
  return undefined;
}

/** Whether a size is one we embed. */
const withinLimits = (width: number, height: number) => width > 0 && height > 0 && width * height <= MAX_IMAGE_PIXELS;

/** Bits per sample allowed for each PNG colour type, and its samples per pixel. */
const PNG_COLOUR_TYPES: Readonly<Record<number, { bits: readonly number[]; samples: number }>> = {
  0: { bits: [1, 2, 4, 8, 16], samples: 1 },
  2: { bits: [8, 16], samples: 3 },
  3: { bits: [1, 2, 4, 8], samples: 1 },
  4: { bits: [8, 16], samples: 2 },
  6: { bits: [8, 16], samples: 4 },
};

/** The passes of Adam7 interlacing: start column, start row, column step, row step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The byte length of each scanline of a PNG's decompressed data, filter byte included, in order. */
function scanlines(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number[] {
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  const lines: number[] = [];
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((width - x0) / dx);
    const rows = Math.ceil((height - y0) / dy);
    if (columns <= 0 || rows <= 0) continue;
    for (let row = 0; row < rows; row++) lines.push(1 + Math.ceil((columns * bitsPerPixel) / 8));
  }
  return lines;
}

/** Checks a PNG's chunks, header and pixel data. */
async function png(bytes: Uint8Array): Promise<ImageSize | undefined> {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, i) => bytes[i] === byte)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Uint8Array[] = [];
  let header: { width: number; height: number; bits: number; colourType: number; interlaced: boolean } | undefined;
  let palette = false;
  let ended = false;
  for (let at = 8; !ended; ) {
    if (at + 12 > bytes.length) return undefined;
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = at + 8;
    if (length > bytes.length - data - 4 || !/^[A-Za-z]{4}$/.test(type)) return undefined;
    if (header === undefined && type !== 'IHDR') return undefined;
    if (type === 'IHDR') {
      if (header !== undefined || length !== 13) return undefined;
      const [bits, colourType, compression, filter, interlace] = bytes.subarray(data + 8, data + 13);
      const allowed = PNG_COLOUR_TYPES[colourType];
      if (!allowed || !allowed.bits.includes(bits) || compression !== 0 || filter !== 0 || interlace > 1) return undefined;
      header = { width: view.getUint32(data), height: view.getUint32(data + 4), bits, colourType, interlaced: interlace === 1 };
      if (!withinLimits(header.width, header.height)) return undefined;
    } else if (type === 'PLTE') {
      if (length === 0 || length % 3 !== 0) return undefined;
      palette = true;
    } else if (type === 'IDAT') {
      idat.push(bytes.subarray(data, data + length));
    } else if (type === 'IEND') {
      ended = true;
    }
    at = data + length + 4;
  }
  if (!header || idat.length === 0 || (header.colourType === 3 && !palette)) return undefined;
  const lines = scanlines(header.width, header.height, header.bits * PNG_COLOUR_TYPES[header.colourType].samples, header.interlaced);
  const expected = lines.reduce((sum, line) => sum + line, 0);
  const pixels = await inflate(idat, expected);
  if (!pixels || pixels.length !== expected) return undefined;
  // Each scanline starts with its filter type, 0..4: another value is what pdfkit's decoder throws on.
  for (let at = 0, i = 0; i < lines.length; at += lines[i++]) if (pixels[at] > 4) return undefined;
  return { width: header.width, height: header.height };
}

/**
 * Decompresses zlib data, stopping once it is longer than `limit` (a small file may inflate to gigabytes);
 * undefined when it is corrupt or too long. DecompressionStream is in Node, Deno, Bun, Workers and browsers.
 */
async function inflate(parts: Uint8Array[], limit: number): Promise<Uint8Array | undefined> {
  const stream = new Blob(parts as Uint8Array<ArrayBuffer>[]).stream().pipeThrough(new DecompressionStream('deflate'));
  try {
    return await readLimited(new Response(stream), limit);
  } catch {
    return undefined;
  }
}

/** pdfkit's start-of-frame markers: every SOFn but DHT (C4), which is where it reads a JPEG's size. */
const isFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4;

/**
 * Checks a JPEG up to its frame header, walking its segments as pdfkit does: 8-bit samples, 1, 3 or 4
 * components (grey, RGB, CMYK), a size within limits. The compressed data is passed through as it is.
 */
function jpeg(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 2; at + 4 <= bytes.length; ) {
    // Every segment starts right where the previous ends (no fill bytes): then pdfkit finds the same frame.
    if (bytes[at] !== 0xff || bytes[at + 1] === 0xff) return undefined;
    const marker = bytes[at + 1];
    const length = view.getUint16(at + 2);
    if (length < 2) return undefined;
    if (isFrame(marker)) {
      if (at + 10 > bytes.length) return undefined;
      const bits = bytes[at + 4];
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      const components = bytes[at + 9];
      return bits === 8 && [1, 3, 4].includes(components) && withinLimits(width, height) ? { width, height } : undefined;
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + length;
  }
  return undefined;
}
