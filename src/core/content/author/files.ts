import type { PrepareContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { FetchFailure, fetchBytes, fetchFailureMessage } from '../../fetch-bytes.js';
import { gitBlobOid } from '../git.js';
import { imageDimensions } from '../images.js';
import type { FileEntry } from '../model.js';
import { MAX_FETCHED_FILE_BYTES, MAX_INLINE_FILE_BYTES, type ContentChangeInput, type FileChangeInput } from './schemas.js';

/** A file of a batch whose bytes are stored: everything its entry needs but its id and time. */
export type StoredFile = Omit<FileEntry, 'id' | 'createdAt'>;

/** The stored files of a batch: for the change at each index that inserts files, one per file. */
export type StoredFiles = ReadonlyMap<number, readonly StoredFile[]>;

/** Decodes standard base64 (whitespace ignored); undefined when it is not base64. */
function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return undefined;
  try {
    return Uint8Array.from(atob(clean), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The bytes and type of one file of a change: decoded, or fetched through the fetch port. */
async function bytesOf(ctx: PrepareContext, file: FileChangeInput, where: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  if (file.base64 !== undefined) {
    const bytes = decodeBase64(file.base64);
    if (!bytes) throw badRequest(`${where}.base64: is not valid base64`);
    if (bytes.length > MAX_INLINE_FILE_BYTES) throw badRequest(`${where}.base64: is ${bytes.length} bytes, more than ${MAX_INLINE_FILE_BYTES}; send it by url`);
    return { bytes, contentType: file.contentType! };
  }
  try {
    const fetched = await fetchBytes(ctx, file.url!, MAX_FETCHED_FILE_BYTES);
    return { bytes: fetched.bytes, contentType: file.contentType ?? fetched.contentType ?? 'application/octet-stream' };
  } catch (error) {
    if (error instanceof FetchFailure) throw badRequest(fetchFailureMessage(`${where}.url`, error, MAX_FETCHED_FILE_BYTES));
    throw error;
  }
}

/** Stores a file's bytes in the blob store and describes them: size, digest, Git id (`gitOid` when the caller read it from a Git tree), image dimensions. */
export async function storeFile(ctx: Pick<PrepareContext, 'blobs'>, name: string, contentType: string, bytes: Uint8Array, gitOid?: string): Promise<StoredFile> {
  const dimensions = contentType.startsWith('image/') ? imageDimensions(bytes) : undefined;
  return {
    name,
    contentType,
    size: bytes.length,
    digest: await ctx.blobs.put(bytes),
    gitOid: gitOid ?? (await gitBlobOid(bytes)),
    ...(dimensions && { dimensions }),
  };
}

/**
 * Stores the bytes of every file a batch inserts in the blob store, before the batch's transaction: bytes
 * are content-addressed, so bytes of a batch that then fails are unreferenced, never wrong. A file that
 * cannot be decoded or fetched is a 400 naming it, and the batch stops there.
 */
export async function storeBatchFiles(ctx: PrepareContext, changes: readonly ContentChangeInput[]): Promise<StoredFiles> {
  const stored = new Map<number, StoredFile[]>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    const files: StoredFile[] = [];
    for (const [position, file] of change.files.entries()) {
      const { bytes, contentType } = await bytesOf(ctx, file, `changes[${index}].files[${position}]`);
      files.push(await storeFile(ctx, file.name, contentType, bytes));
    }
    stored.set(index, files);
  }
  return stored;
}
