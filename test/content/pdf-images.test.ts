import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { embeddableImage, MAX_IMAGE_PIXELS } from '../../src/core/content/pdf/images.js';
import { SMALL_JPEG, solidPng } from '../http/pdf-inspect.js';

/** The check every image passes before pdfkit sees it: pdfkit loops, reads past the end or throws uncaught on bad bytes. */

/** A PNG's chunks rebuilt with a change: `edit` gets each chunk's type and data and returns the new data (or null to drop it). */
function rebuild(png: Uint8Array, edit: (type: string, data: Buffer) => Buffer | null, lengthOf = (data: Buffer) => data.length): Uint8Array {
  const bytes = Buffer.from(png);
  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = edit(type, Buffer.from(bytes.subarray(at + 8, at + 8 + length)));
    if (data) {
      const head = Buffer.alloc(8);
      head.writeUInt32BE(lengthOf(data) >>> 0, 0);
      head.write(type, 4, 'latin1');
      parts.push(head, data, Buffer.alloc(4));
    }
    at += 12 + length;
  }
  return new Uint8Array(Buffer.concat(parts));
}

describe('embeddable images', () => {
  it('accepts well-formed PNGs (RGB, RGBA) and JPEGs, with their size', async () => {
    expect(await embeddableImage(solidPng(40, 20, [255, 0, 0]))).toEqual({ width: 40, height: 20 });
    expect(await embeddableImage(solidPng(3, 5, [0, 0, 0, 10], true))).toEqual({ width: 3, height: 5 });
    expect(await embeddableImage(SMALL_JPEG)).toEqual({ width: 16, height: 16 });
  });

  it('accepts an interlaced PNG whose seven passes are all there', async () => {
    // 3 x 3 grey, 8 bits, Adam7: passes 1, 2 (empty: starts at column 4), 3 (empty), 4, 5, 6, 7.
    const passes = [[1, 1], [0, 0], [0, 0], [1, 1], [2, 1], [1, 2], [3, 1]];
    const raw = Buffer.from(passes.flatMap(([columns, rows]) => (columns > 0 ? Array.from({ length: rows }, () => [0, ...Array(columns).fill(128)]).flat() : [])));
    const png = rebuild(solidPng(3, 3, [0, 0, 0]), (type, data) => {
      if (type === 'IHDR') return Buffer.from([...data.subarray(0, 8), 8, 0, 0, 0, 1]);
      if (type === 'IDAT') return deflateSync(raw);
      return data;
    });
    expect(await embeddableImage(png)).toEqual({ width: 3, height: 3 });
  });

  it('refuses PNGs pdfkit would choke on', async () => {
    const good = solidPng(4, 4, [0, 0, 255, 255], true);
    const corrupt = Uint8Array.from(good);
    corrupt[corrupt.length - 20] ^= 0xff;
    const cases: Record<string, Uint8Array> = {
      'corrupt compressed pixels': corrupt,
      truncated: good.subarray(0, good.length - 30),
      'a negative chunk length': rebuild(good, (type, data) => (type === 'IEND' ? data : data), (data) => (data.length === 0 ? -12 : data.length)),
      'no IEND': rebuild(good, (type, data) => (type === 'IEND' ? null : data)),
      'no IDAT': rebuild(good, (type, data) => (type === 'IDAT' ? null : data)),
      'a filter type of 5': rebuild(good, (type, data) => (type === 'IDAT' ? deflateSync(Buffer.from(Array.from({ length: 4 }, () => [5, ...Array(16).fill(0)]).flat())) : data)),
      'too few pixels': rebuild(good, (type, data) => (type === 'IDAT' ? deflateSync(Buffer.alloc(10)) : data)),
      'too many pixels (a bomb)': rebuild(good, (type, data) => (type === 'IDAT' ? deflateSync(Buffer.alloc(10_000_000)) : data)),
      '16 bits in a palette image': rebuild(good, (type, data) => (type === 'IHDR' ? Buffer.from([...data.subarray(0, 8), 16, 3, 0, 0, 0]) : data)),
      'a palette image without a palette': rebuild(good, (type, data) => (type === 'IHDR' ? Buffer.from([...data.subarray(0, 8), 8, 3, 0, 0, 0]) : data)),
      'zero width': rebuild(good, (type, data) => (type === 'IHDR' ? Buffer.from([0, 0, 0, 0, ...data.subarray(4)]) : data)),
      'more pixels than the limit': rebuild(good, (type, data) => {
        if (type !== 'IHDR') return data;
        const header = Buffer.from(data);
        header.writeUInt32BE(MAX_IMAGE_PIXELS / 1024 + 1, 0);
        header.writeUInt32BE(1024, 4);
        return header;
      }),
      'IDAT before IHDR': (() => {
        const bytes = Buffer.from(good);
        const ihdr = bytes.subarray(8, 33);
        const rest = bytes.subarray(33);
        return new Uint8Array(Buffer.concat([bytes.subarray(0, 8), rest.subarray(0, rest.length - 12), ihdr, rest.subarray(rest.length - 12)]));
      })(),
    };
    for (const [name, bytes] of Object.entries(cases)) expect(await embeddableImage(bytes), name).toBeUndefined();
  });

  it('refuses JPEGs that are not 8-bit grey, RGB or CMYK, or whose segments do not chain', async () => {
    const frame = SMALL_JPEG.indexOf(Buffer.from([0xff, 0xc0]));
    const withByte = (at: number, value: number) => {
      const copy = Buffer.from(SMALL_JPEG);
      copy[at] = value;
      return copy;
    };
    expect(await embeddableImage(withByte(frame + 4, 12)), '12-bit').toBeUndefined();
    expect(await embeddableImage(withByte(frame + 9, 2)), 'two components').toBeUndefined();
    expect(await embeddableImage(Buffer.concat([SMALL_JPEG.subarray(0, 2), Buffer.from([0x00]), SMALL_JPEG.subarray(2)])), 'garbage between segments').toBeUndefined();
    expect(await embeddableImage(SMALL_JPEG.subarray(0, frame)), 'no frame').toBeUndefined();
    expect(await embeddableImage(Buffer.from('GIF89a')), 'a GIF').toBeUndefined();
  });
});
