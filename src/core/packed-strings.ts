/**
 * Many strings packed as UTF-8 into one byte array, to move them between threads: the bytes move instead of
 * being copied (the structured clone of megabytes of strings holds each thread for tens of milliseconds), and
 * each string is decoded only when read, so the reading can be spread over slices of work.
 */
export interface PackedStrings {
  readonly bytes: Uint8Array;
  /** Where each string ends in `bytes` (it starts where the one before it ends). */
  readonly ends: Uint32Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Packs strings one at a time (see PackedStrings). */
export class StringPacker {
  private bytes = new Uint8Array(64 * 1024);
  private used = 0;
  private readonly ends: number[] = [];

  /** Appends a string. */
  add(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    const needed = this.used + text.length * 3;
    if (needed > this.bytes.length) {
      const bytes = new Uint8Array(Math.max(needed, this.bytes.length * 2));
      bytes.set(this.bytes.subarray(0, this.used));
      this.bytes = bytes;
    }
    this.used += encoder.encodeInto(text, this.bytes.subarray(this.used)).written;
    this.ends.push(this.used);
  }

  /** The strings packed so far; the packer is not used after this (its buffer is handed over). */
  finish(): PackedStrings {
    return { bytes: this.bytes.subarray(0, this.used), ends: Uint32Array.from(this.ends) };
  }
}

/** Packs a list of strings. */
export function packStrings(texts: Iterable<string>): PackedStrings {
  const packer = new StringPacker();
  for (const text of texts) packer.add(text);
  return packer.finish();
}

/** How many strings are packed. */
export const packedCount = (packed: PackedStrings): number => packed.ends.length;

/** The string at an index. */
export function unpack(packed: PackedStrings, index: number): string {
  return decoder.decode(packed.bytes.subarray(index === 0 ? 0 : packed.ends[index - 1], packed.ends[index]));
}

/** The buffers of packed strings, which move to another thread whole (a packer owns its buffer). */
export const packedBuffers = (packed: PackedStrings): ArrayBuffer[] => [packed.bytes.buffer as ArrayBuffer, packed.ends.buffer as ArrayBuffer];
