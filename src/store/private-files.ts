import { chmod, mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * The modes of what the JSON-file store and the blob folder write. The data file and its journal hold the
 * platform's signing key, from which download URLs and every site's reader keys derive, and the blob folder
 * holds uploaded files: no other user of the machine may read them, whatever the process's umask. A mode
 * given to open or mkdir is masked by the umask, which can only remove bits; a chmod after creation makes it
 * exact (a umask of 0277 would leave a journal segment the process could not reopen for writing). On
 * Windows, modes are not Unix permissions: nothing is changed or checked there.
 */

/** The mode of every file they write: read and written by the owner only. */
export const PRIVATE_FILE = 0o600;

/** The mode of every folder they create. */
export const PRIVATE_FOLDER = 0o700;

/** Whether chmod means Unix permissions here. */
const unixModes = process.platform !== 'win32';

/** Opens a file for writing (`w`, `a`, or `wx` to create a new one) with mode 0600, also when it existed with another. */
export async function openPrivate(path: string, flags: 'w' | 'a' | 'wx'): Promise<FileHandle> {
  const handle = await open(path, flags, PRIVATE_FILE);
  if (!unixModes) return handle;
  try {
    await handle.chmod(PRIVATE_FILE);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** Makes the folder at `path` and the missing folders above it, each with mode 0700; folders already there are left as they are. */
export async function makePrivateFolder(path: string): Promise<void> {
  const target = resolve(path);
  const first = await mkdir(target, { recursive: true, mode: PRIVATE_FOLDER });
  if (first === undefined || !unixModes) return;
  for (let folder = target; ; folder = dirname(folder)) {
    await chmod(folder, PRIVATE_FOLDER);
    if (folder === first || folder === dirname(folder)) return;
  }
}

/** Sets a file's mode to 0600 (after a copy, which keeps the source's mode). */
export async function makePrivate(path: string): Promise<void> {
  if (unixModes) await chmod(path, PRIVATE_FILE);
}

/**
 * Takes from an existing file or folder the permission bits beyond `allowed` (0600 for a file, 0700 for a
 * folder), as a data file written by an older version under the usual umask (0644) has. Resolves to the
 * line that says what changed, or undefined when nothing did (no such path, or nothing to take).
 */
export async function tighten(path: string, allowed: number): Promise<string | undefined> {
  if (!unixModes) return undefined;
  let mode: number;
  try {
    mode = (await stat(path)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((mode & ~allowed) === 0) return undefined;
  await chmod(path, mode & allowed);
  return `tightened permissions of ${path} from ${octal(mode)} to ${octal(mode & allowed)}: no other user of the machine may read it`;
}

const octal = (mode: number) => `0${mode.toString(8).padStart(3, '0')}`;
