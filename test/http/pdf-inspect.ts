import { deflateSync, inflateSync } from 'node:zlib';
import { expect } from 'vitest';

/**
 * A small reader of the PDFs the export writes, enough for tests: every object's dictionary, its stream
 * decompressed, the text its content streams show (pdfkit writes text as hex strings in TJ arrays, in the
 * standard fonts' WinAnsi encoding, close enough to Latin-1 for the words tests look for).
 */

/** What a test looks at in a PDF. */
export interface PdfFacts {
  /** How many page objects it has. */
  readonly pages: number;
  /** The text of each page's content stream, in page order: one line per text object (without its page number). */
  readonly pageTexts: string[];
  /** The page number printed on each page (the first text a page shows: it is written as the page is added). */
  readonly pageNumbers: string[];
  /** All the text, pages joined. */
  readonly text: string;
  /** The dictionaries of its image objects (soft masks included). */
  readonly images: string[];
  /** The PDF without its streams: dictionaries, annotations, outline. */
  readonly structure: string;
}

/** The strings a content stream shows, one line per baseline: runs of one line (bold, links) join up. */
function textOf(content: string): string {
  const lines: string[] = [];
  let baseline: string | undefined;
  for (const block of content.matchAll(/BT([\s\S]*?)ET/g)) {
    let text = '';
    for (const array of block[1].matchAll(/\[(.*?)\] TJ/g)) {
      for (const hex of array[1].matchAll(/<([0-9a-fA-F]*)>/g)) text += Buffer.from(hex[1], 'hex').toString('latin1');
    }
    const y = /1 0 0 1 \S+ (\S+) Tm/.exec(block[1])?.[1];
    if (y !== undefined && y === baseline) lines[lines.length - 1] += text;
    else lines.push(text);
    baseline = y;
  }
  return lines.join('\n');
}

/** Reads a PDF: checks its header and trailer, decompresses its streams and finds its pages, text and images. */
export function inspectPdf(bytes: Uint8Array): PdfFacts {
  const raw = Buffer.from(bytes).toString('latin1');
  expect(raw.startsWith('%PDF-')).toBe(true);
  expect(raw.trimEnd().endsWith('%%EOF')).toBe(true);
  const objects = new Map<number, { dictionary: string; stream?: string }>();
  let structure = '';
  const object = /(\d+) 0 obj\s*(<<[\s\S]*?>>|[^<][\s\S]*?)\s*(stream\r?\n|endobj)/g;
  // Object by object, skipping each stream's bytes: binary data must not be read as objects.
  for (let match = object.exec(raw); match; match = object.exec(raw)) {
    const [whole, id, dictionary, after] = match;
    structure += `${dictionary}\n`;
    if (after === 'endobj') {
      objects.set(Number(id), { dictionary });
      continue;
    }
    const length = Number(/\/Length (\d+)/.exec(dictionary)![1]);
    const start = match.index + whole.length;
    let data = Buffer.from(raw.slice(start, start + length), 'latin1');
    if (/\/Filter \/FlateDecode/.test(dictionary) && !/\/Subtype \/Image/.test(dictionary)) data = inflateSync(data);
    objects.set(Number(id), { dictionary, stream: data.toString('latin1') });
    object.lastIndex = start + length;
  }
  // Pages in order: the Kids of the page tree, each page's Contents its stream.
  const kids = /\/Type \/Pages\s*\/Count \d+\s*\/Kids \[([^\]]*)\]/.exec(structure);
  const pageIds = kids ? [...kids[1].matchAll(/(\d+) 0 R/g)].map((match) => Number(match[1])) : [];
  const numbered = pageIds.map((id) => {
    const contents = /\/Contents (\d+) 0 R/.exec(objects.get(id)!.dictionary)!;
    const [number, ...lines] = textOf(objects.get(Number(contents[1]))!.stream ?? '').split('\n');
    return { number: number!, text: lines.join('\n') };
  });
  const pageTexts = numbered.map((page) => page.text);
  const pageNumbers = numbered.map((page) => page.number);
  const pages = [...structure.matchAll(/\/Type \/Page\b(?!s)/g)].length;
  expect(pages).toBe(pageIds.length);
  const images = [...objects.values()].filter((object) => /\/Subtype \/Image/.test(object.dictionary)).map((object) => object.dictionary);
  return { pages, pageTexts, pageNumbers, text: pageTexts.join('\n'), images, structure };
}

/** The CRC-32 of PNG chunks. */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A PNG of one colour: RGB (colour type 2) or RGBA (6). */
export function solidPng(width: number, height: number, rgba: readonly number[], alpha = false): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, alpha ? 6 : 2, 0, 0, 0], 8);
  const pixel = alpha ? rgba.slice(0, 4) : rgba.slice(0, 3);
  const row = [0, ...Array.from({ length: width }, () => pixel).flat()];
  const pixels = Buffer.from(Array.from({ length: height }, () => row).flat());
  return new Uint8Array(
    Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]),
  );
}

/** A real 16 x 16 baseline JPEG (543 bytes: the `python.jpg` test image of CPython's test suite). */
export const SMALL_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEAAQABAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/2wBDAQMDAwQDBAgEBAgQCwkLEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBD/wAARCAAQABADASIAAhEBAxEB/8QAFgABAQEAAAAAAAAAAAAAAAAABwQF/8QAJBAAAQQBBAICAwAAAAAAAAAAAQIDBAYFBwgSExEiABQJMTL/xAAVAQEBAAAAAAAAAAAAAAAAAAAABv/EACMRAAECBQMFAAAAAAAAAAAAAAECEQMEBQYhABIxFRZhgeH/2gAMAwEAAhEDEQA/ABSm0mobc8HmExLUlRzzEWPkJWW+ulrsaUVAseUgslSlH9LKuPryIKuWPZdskzXmm3fX5m2nF4GlVxx/HOpx4ks51+MiU/Iaad7UcUo4tILoS4kqcWkezS0hO/HvuRp0rO6hWnWO1UisZVuFi4GFeyEpmGepa5S5SWVPuciFKRFLgSrwetnyPIB+Vb4N9mKhQMzo5po9XLdDs9d6ZVix2VEhiL9kuNPxw2gEKcDQ/rs8AuA8VAe0vdl7VOYn+27flGAUgmITjbhSmCg3BYlyeWDkMolvw4KOp1KM6iCNvngZHwetf//Z',
  'base64',
);
