import { hasScheme, titleOfName } from './page-body.js';
import { parseSummary, type SummaryItem } from './summary.js';

/**
 * Where the pages of a zip archive go: the tree of pages its Markdown files make, before any file is read.
 * With a `SUMMARY.md` at its root the tree is that table of contents (as Git Sync reads it): its items in
 * order and nesting, `## Headings` as groups, http(s) items without subitems as link pages; Markdown files
 * it does not list are skipped. Without one, the tree is the folders: each folder with Markdown files
 * somewhere below it is a page, whose body is its `README.md` (else `index.md`), with its files and
 * subfolders as subpages; siblings are sorted by name (`2-b` before `10-a`); at the root, `README.md` and
 * `index.md` come first.
 */

/** A page of the layout. */
export interface Slot {
  readonly type: 'document' | 'group' | 'link';
  /** The Markdown file that is its body, if any. */
  readonly source?: string;
  /** The folder it stands for (its path), if any: links to the folder name it. */
  readonly folder?: string;
  /** Link pages: where they point. */
  readonly url?: string;
  /** Its title when its body names none (the table of contents' text, the file or folder name). */
  readonly titles: readonly (string | undefined)[];
  /** The title the table of contents sets in quotes, which wins over the body's. */
  readonly treeTitle?: string;
  readonly children: readonly Slot[];
}

/** Whether a path is a Markdown file. */
export const isMarkdownPath = (path: string): boolean => /\.(md|markdown)$/i.test(path);

/** The last segment of a path. */
export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** The folder of a path ('' at the root). */
export const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/**
 * A path resolved against a folder (`''` is the root; a leading `/` starts from the root): `.` and `..`
 * segments applied, decoded. Undefined when it leaves the archive or does not decode.
 */
export function resolvePath(folder: string, path: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  return applySegments(decoded.startsWith('/') ? [] : folder.split('/').filter(Boolean), decoded);
}

/** The segments of `path` applied to a folder's (`.` and empty ones skipped, `..` going up), joined; undefined when it goes above. */
export function applySegments(folder: readonly string[], path: string): string | undefined {
  const segments = [...folder];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined;
    } else segments.push(segment);
  }
  return segments.join('/');
}

/** Sorts names as people do: case aside, numbers by value. */
const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);

/** The README.md (else index.md) among some paths of one folder. */
function folderPage(paths: readonly string[]): string | undefined {
  const named = (name: string) => paths.find((path) => baseName(path).toLowerCase() === name);
  return named('readme.md') ?? named('index.md');
}

/** The layout of the Markdown files below `folder`, as the folders make it. */
function folderSlots(markdown: readonly string[], folder: string): Slot[] {
  const prefix = folder === '' ? '' : `${folder}/`;
  const own = markdown.filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'));
  const subfolders = [...new Set(markdown.filter((path) => path.startsWith(prefix) && path.slice(prefix.length).includes('/')).map((path) => path.slice(prefix.length).split('/')[0]))];
  const home = folderPage(own);
  const named: [string, Slot][] = [
    ...own.filter((path) => folder === '' || path !== home).map((path): [string, Slot] => [baseName(path), { type: 'document', source: path, titles: [titleOfName(baseName(path))], children: [] }]),
    ...subfolders.map((name): [string, Slot] => {
      const path = `${prefix}${name}`;
      const body = folderPage(markdown.filter((file) => folderOf(file) === path));
      return [name, { type: 'document', ...(body && { source: body }), folder: path, titles: [titleOfName(name)], children: folderSlots(markdown, path) }];
    }),
  ];
  const first = (name: string) => (folder !== '' ? 2 : /^readme\.md$/i.test(name) ? 0 : /^index\.md$/i.test(name) ? 1 : 2);
  named.sort(([a], [b]) => first(a) - first(b) || byName(a, b));
  return named.map(([, slot]) => slot);
}

/** The layout a table of contents gives; `used` collects the files it names, each taken by its first item. */
function summarySlots(items: readonly SummaryItem[], exists: (path: string) => boolean, used: Set<string>): Slot[] {
  return items.map((item): Slot => {
    if (item.group) return { type: 'group', titles: [item.title], children: summarySlots(item.children, exists, used) };
    if (item.target !== undefined && /^https?:\/\//i.test(item.target) && item.children.length === 0) {
      return { type: 'link', url: item.target, titles: [item.title, item.target], children: [] };
    }
    const target = item.target?.split('#')[0] ?? '';
    const path = target === '' || hasScheme(target) ? undefined : resolvePath('', target);
    const source = path !== undefined && isMarkdownPath(path) && exists(path) && !used.has(path) ? path : undefined;
    // The item takes its file before its subitems are read: the first mention, in reading order, wins.
    if (source !== undefined) used.add(source);
    const children = summarySlots(item.children, exists, used);
    const treeTitle = item.treeTitle === undefined ? {} : { treeTitle: item.treeTitle };
    if (source === undefined) return { type: 'document', titles: [item.title], ...treeTitle, children };
    const readme = /(^|\/)readme\.md$/i.test(source);
    return { type: 'document', source, ...(readme && { folder: folderOf(source) }), titles: [item.title, titleOfName(baseName(source))], ...treeTitle, children };
  });
}

/**
 * The layout of an archive's pages, from its file paths (Markdown and other): by its table of contents when
 * it has one (`summary` reads it; `summaryPath` names it, else a root `SUMMARY.md` in any case), else by its
 * folders.
 */
export function layoutPages(paths: readonly string[], summary: (path: string) => string, summaryPath?: string): Slot[] {
  const markdown = paths.filter(isMarkdownPath);
  const contents = summaryPath === undefined ? markdown.find((path) => path.toLowerCase() === 'summary.md') : markdown.find((path) => path === summaryPath);
  if (contents === undefined) return folderSlots(markdown, '');
  const present = new Set(markdown);
  return summarySlots(parseSummary(summary(contents)), (path) => present.has(path), new Set([contents]));
}
