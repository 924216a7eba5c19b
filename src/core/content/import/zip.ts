import { Inflate } from 'fflate';
import { badRequest } from '../../errors.js';
import { MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES, MAX_ZIP_ENTRY_BYTES } from './schemas.js';

/**
 * Reading zip archives without trusting them. The central directory is read first, and the archive is
 * refused (400) before anything inflates when it lists more than MAX_ZIP_ENTRIES entries or declares more
 * than MAX_UNZIPPED_BYTES in all. An entry inflates through fflate's streaming Inflate in small chunks and
 * stops as soon as it yields more than it declared: a zip bomb that lies about its sizes costs at most one
 * chunk's worth of work past the limit, never the gigabytes it would expand to. (fflate's unzipSync
 * inflates a whole entry at once into a buffer of the declared size, decoding everything past it.)
 */

/** One file of an archive (folders are not listed). */
export interface ZipEntry {
  /** Its path in the archive, `/`-separated, without a leading `/` or `./`. */
  readonly path: string;
  /** How many bytes it declares it inflates to. */
  readonly size: number;
  readonly method: number;
  readonly compressedSize: number;
  /** Where its local header starts. */
  readonly offset: number;
}

/** An archive's file entries, and a way to read one. */
export interface ZipArchive {
  readonly entries: readonly ZipEntry[];
  /** The bytes of an entry: a 400 when it is damaged, uses an unknown method or is over MAX_ZIP_ENTRY_BYTES. */
  read(entry: ZipEntry): Uint8Array;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;
/** How many compressed bytes go into the inflater at a time (at most ~1,032 times as many come out). */
const CHUNK = 4096;

/** Reads a zip archive's directory; a 400 naming the problem when it is not a zip or breaks a limit. */
export function openZip(bytes: Uint8Array, what: string): ZipArchive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const damaged = (why: string) => badRequest(`${what} is not a readable zip archive: ${why}`);
  if (bytes.length < 22 || (u32(0) !== LOCAL_HEADER && u32(0) !== END_OF_DIRECTORY)) throw badRequest(`${what} is not a zip archive`);
  let end = bytes.length - 22;
  const lowest = Math.max(0, end - 0xffff);
  while (end >= lowest && u32(end) !== END_OF_DIRECTORY) end--;
  if (end < lowest) throw damaged('it has no central directory');
  const count = u16(end + 10);
  const directorySize = u32(end + 12);
  let at = u32(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw damaged('ZIP64 archives are not supported');
  if (count > MAX_ZIP_ENTRIES) throw badRequest(`${what} holds ${count} entries, more than ${MAX_ZIP_ENTRIES}`);
  if (at + directorySize > end) throw damaged('its central directory is out of bounds');

  const entries: ZipEntry[] = [];
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(at) !== CENTRAL_HEADER) throw damaged(`entry ${i + 1} of its directory is broken`);
    const flags = u16(at + 8);
    const nameLength = u16(at + 28);
    const next = at + 46 + nameLength + u16(at + 30) + u16(at + 32);
    if (next > end) throw damaged(`entry ${i + 1} of its directory is broken`);
    // Bit 11: the name is UTF-8; otherwise it is in the DOS code page, read here as Latin-1.
    const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'latin1').decode(bytes.subarray(at + 46, at + 46 + nameLength));
    const entry: ZipEntry = { path: name.replace(/\\/g, '/').replace(/^(\.?\/)+/, ''), method: u16(at + 10), compressedSize: u32(at + 20), size: u32(at + 24), offset: u32(at + 42) };
    at = next;
    if (entry.path === '' || entry.path.endsWith('/')) continue;
    if (flags & 0x1) throw damaged(`${entry.path} is encrypted`);
    declared += entry.size;
    if (declared > MAX_UNZIPPED_BYTES) throw badRequest(`${what} would unpack to more than ${MAX_UNZIPPED_BYTES} bytes`);
    entries.push(entry);
  }

  return {
    entries,
    read(entry) {
      if (entry.size > MAX_ZIP_ENTRY_BYTES) throw badRequest(`${what}: ${entry.path} is ${entry.size} bytes, more than ${MAX_ZIP_ENTRY_BYTES}`);
      if (entry.offset + 30 > bytes.length || u32(entry.offset) !== LOCAL_HEADER) throw damaged(`${entry.path} has no local header`);
      const start = entry.offset + 30 + u16(entry.offset + 26) + u16(entry.offset + 28);
      if (start + entry.compressedSize > bytes.length) throw damaged(`${entry.path} is cut short`);
      const data = bytes.subarray(start, start + entry.compressedSize);
      if (entry.method === 0) {
        if (entry.compressedSize !== entry.size) throw damaged(`${entry.path} is not the size it declares`);
        return data.slice();
      }
      if (entry.method !== 8) throw damaged(`${entry.path} uses compression method ${entry.method} (only stored and deflate are read)`);
      const inflated = inflateAtMost(data, entry.size);
      if (!inflated) throw damaged(`${entry.path} is damaged or not the size it declares`);
      return inflated;
    },
  };
}

/** Inflates DEFLATE data that must yield exactly `size` bytes; undefined when it is broken or yields another size. */
function inflateAtMost(data: Uint8Array, size: number): Uint8Array | undefined {
  const out = new Uint8Array(size);
  let written = 0;
  let over = false;
  const inflater = new Inflate((chunk) => {
    if (written + chunk.length > size) over = true;
    else out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < data.length && !over; at += CHUNK) inflater.push(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
    if (data.length === 0) return size === 0 ? out : undefined;
  } catch {
    return undefined;
  }
  return !over && written === size ? out : undefined;
}
