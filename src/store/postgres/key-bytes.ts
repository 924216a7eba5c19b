import type { Scalar, SortKey } from '../types.js';

/**
 * Sort keys as bytes whose plain byte order (PostgreSQL's bytea order) is the store's order of scalars:
 * null, then false and true, then numbers, then strings by UTF-16 code unit (see compareScalars). A list is
 * then an index range scan over one bytea column, with the same order and ties as in memory, whatever
 * types a field holds. PostgreSQL's own orders cannot give that: jsonb puts strings before numbers, and
 * text collations compare code points or locale rules, not code units.
 *
 * Each scalar is a type byte, then its value; a string is self-delimiting (FoundationDB's tuple layer: a
 * 0x00 byte is written 0x00 0xFF, the end is a lone 0x00), so a key of several scalars compares element by
 * element, and a key that is a prefix of another sorts first, as compareKeys does.
 */

const NULL = 0x01;
const BOOLEAN = 0x02;
const NUMBER = 0x03;
const STRING = 0x04;

/** Appends the bytes of one scalar. */
function pushScalar(out: number[], value: Scalar): void {
  if (value === null) {
    out.push(NULL);
  } else if (typeof value === 'boolean') {
    out.push(BOOLEAN, value ? 1 : 0);
  } else if (typeof value === 'number') {
    out.push(NUMBER);
    const bytes = new Uint8Array(8);
    // -0 equals 0 in the store's order; big-endian IEEE 754, sign flipped (positives) or every bit (negatives).
    new DataView(bytes.buffer).setFloat64(0, value === 0 ? 0 : value);
    if (bytes[0] & 0x80) for (let i = 0; i < 8; i++) bytes[i] ^= 0xff;
    else bytes[0] ^= 0x80;
    out.push(...bytes);
  } else {
    out.push(STRING);
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      const high = unit >> 8;
      const low = unit & 0xff;
      out.push(high);
      if (high === 0) out.push(0xff);
      out.push(low);
      if (low === 0) out.push(0xff);
    }
    out.push(0x00);
  }
}

/** The bytes of a sort key (or of a group value, as a key of one scalar). */
export function keyBytes(key: SortKey | readonly Scalar[]): Buffer {
  const out: number[] = [];
  for (const value of key) pushScalar(out, value);
  return Buffer.from(out);
}
