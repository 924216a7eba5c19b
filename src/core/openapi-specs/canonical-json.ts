/**
 * The canonical form of a JSON value, in UTF-8: JSON text with every object's keys sorted (by UTF-16 code
 * units, as `Array.prototype.sort` orders strings), no spaces, and each scalar as `JSON.stringify` writes it.
 * A version's digest is its SHA-256, so that documents that differ only in layout or key order are equal.
 * Digests already stored were made from this form: it must not change.
 *
 * Written straight into one byte array. Built as nested strings, joined at each level and then encoded,
 * a 4 MB document left tens of megabytes of garbage in the job's heap; V8 collects that with helper threads
 * at the process's priority, which take cores from the main thread however low the job thread's priority is.
 */

/** A string that JSON.stringify writes as itself between quotes: no quote, backslash, control character or surrogate. */
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** Writes bytes into an array that grows by doubling. */
class ByteWriter {
  private bytes: Uint8Array;
  private at = 0;
  private readonly encoder = new TextEncoder();

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }

  private room(count: number): void {
    if (this.at + count <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.at + count));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
  }

  byte(code: number): void {
    this.room(1);
    this.bytes[this.at++] = code;
  }

  /** Writes a string as UTF-8: ASCII byte by byte (most keys and values), the rest through TextEncoder. */
  text(value: string): void {
    this.room(value.length);
    for (let index = 0; index < value.length; index++) {
      const code = value.charCodeAt(index);
      if (code >= 0x80) return this.encoded(value.slice(index));
      this.bytes[this.at++] = code;
    }
  }

  private encoded(value: string): void {
    this.room(value.length * 3);
    this.at += this.encoder.encodeInto(value, this.bytes.subarray(this.at)).written;
  }

  /** A quoted JSON string, as JSON.stringify writes it. */
  string(value: string): void {
    if (!PLAIN.test(value)) return this.text(JSON.stringify(value));
    this.byte(0x22);
    this.text(value);
    this.byte(0x22);
  }

  result(): Uint8Array {
    return this.bytes.subarray(0, this.at);
  }
}

/**
 * The canonical form (see the module comment) of a value read from JSON or YAML. `sizeHint`: its compact
 * JSON's length in bytes, which the canonical form has too, so that the array is allocated once.
 */
export function canonicalJsonBytes(value: unknown, sizeHint = 0): Uint8Array {
  const out = new ByteWriter(sizeHint);
  const write = (item: unknown): void => {
    if (typeof item === 'string') return out.string(item);
    if (Array.isArray(item)) {
      out.byte(0x5b);
      for (let index = 0; index < item.length; index++) {
        if (index > 0) out.byte(0x2c);
        write(item[index]);
      }
      return out.byte(0x5d);
    }
    if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item).sort();
      out.byte(0x7b);
      for (let index = 0; index < keys.length; index++) {
        if (index > 0) out.byte(0x2c);
        out.string(keys[index]);
        out.byte(0x3a);
        write((item as Record<string, unknown>)[keys[index]]);
      }
      return out.byte(0x7d);
    }
    out.text(JSON.stringify(item));
  };
  write(value);
  return out.result();
}
