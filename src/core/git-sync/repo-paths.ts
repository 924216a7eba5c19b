import { applySegments } from '../content/import/layout.js';
import { badRequest } from '../errors.js';

/**
 * Paths inside a synced repository. Every path the format reads from a repository (`root`, the summary,
 * links, redirects, the entries of the tree) is checked here, so that nothing names a file outside the
 * docs it was given: no `..` that leaves, no absolute path, no backslash or NUL, no empty segment.
 */

/**
 * A relative path made canonical (`./a//b/` → `a/b`, `a/../b` → `b`), or undefined when it is unsafe: absolute,
 * with a backslash or a NUL, or with a `..` that leaves where it starts. `''` is the folder itself.
 */
export function safeRelativePath(path: string): string | undefined {
  if (path.startsWith('/') || /[\\\u0000]/.test(path) || /^[A-Za-z]:/.test(path)) return undefined;
  return applySegments([], path);
}

/** safeRelativePath, or a 400 naming what it is (`what`) and the path. */
export function requireSafePath(path: string, what: string): string {
  const safe = safeRelativePath(path);
  if (safe === undefined) throw badRequest(`${what}: "${path}" is not a safe relative path (absolute, or leaving the repository)`);
  return safe;
}

/** Paths joined with `/`, empty parts left out (`''` is a folder's own path). */
export const joinPath = (...parts: readonly string[]): string => parts.filter((part) => part !== '').join('/');

/** The path of `path` below `folder`, or undefined when it is not below it (`folder` '' holds everything). */
export function below(folder: string, path: string): string | undefined {
  if (folder === '') return path;
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
}

/** The path from the folder of file `from` to `to` (both from the same root): `../b/c.md`, `c.md`. */
export function relativePath(from: string, to: string): string {
  const fromFolders = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromFolders.length && common < toParts.length - 1 && fromFolders[common] === toParts[common]) common++;
  return [...fromFolders.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}
