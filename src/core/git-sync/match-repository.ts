import { gitFilePath, gitPagePath } from '../content/git.js';
import type { PageNode, PageTree } from '../content/model.js';
import type { PlannedPage } from '../content/import/plan.js';
import type { LocalPlan } from '../content/import/local-ids.js';

/**
 * Which pages and files of a repository read are the ones of the revision at the last sync, so that the
 * import's three-way merge compares each page with itself. A page read from a Markdown file is the page
 * that was at that path in the repository (the sync recorded it; else the path an export writes it to);
 * a file, the file at that path. A page with no file of its own (a group, a link, a folder without a
 * readme) is the page of the same type and title (a link: the same URL) under the same parent. Each
 * page of the revision is matched at most once; what matches nothing is new.
 */

/** The revision of the last sync, and where its pages and files were in the repository. */
export interface SyncBase {
  readonly tree: PageTree;
  /** Paths relative to the docs' root, by page or file id (GitSyncRecord.paths). */
  readonly paths: Readonly<Record<string, string>>;
}

/** The path of a page of the base in the repository, if it has a file of its own. */
function pathOfPage(page: PageNode, paths: SyncBase['paths']): string | undefined {
  if (page.type !== 'document') return undefined;
  return paths[page.id] ?? gitPagePath(page, page.pages.length > 0);
}

/** The key of a page without a file of its own: its parent, its type, its title or URL. */
const looseKey = (parent: string | null, type: string, name: string) => `${parent ?? ''}\u0000${type}\u0000${name}`;

/** Local ids of a plan (read with `sources`, local id → path) to ids of the base. */
export function matchRepository(plan: LocalPlan, sources: Readonly<Record<string, string>>, base: SyncBase): Map<string, string> {
  const byPath = new Map<string, string>();
  const byKey = new Map<string, string>();
  const visit = (pages: readonly PageNode[]) => {
    for (const page of pages) {
      const path = pathOfPage(page, base.paths);
      if (path !== undefined && !byPath.has(path)) byPath.set(path, page.id);
      const name = page.type === 'link' ? (page.target?.kind === 'url' ? page.target.url : '') : page.title;
      const key = looseKey(page.parent, page.type, name);
      if (!byKey.has(key)) byKey.set(key, page.id);
      visit(page.pages);
    }
  };
  visit(base.tree.pages);
  const matched = new Map<string, string>();
  const taken = new Set<string>();
  const take = (local: string, id: string | undefined) => {
    if (id === undefined || taken.has(id)) return undefined;
    taken.add(id);
    matched.set(local, id);
    return id;
  };
  const match = (pages: readonly PlannedPage[], parent: string | null | undefined) => {
    for (const page of pages) {
      const source = sources[page.id];
      let id = source === undefined ? undefined : take(page.id, byPath.get(source));
      // A page under a parent that matched nothing is new, whatever its title.
      if (id === undefined && parent !== undefined) id = take(page.id, byKey.get(looseKey(parent, page.type, page.type === 'link' ? (page.url ?? '') : page.title)));
      match(page.pages, id);
    }
  };
  match(plan.pages, null);
  const files = new Map<string, string>();
  for (const file of base.tree.files) {
    const path = base.paths[file.id] ?? gitFilePath(file.name);
    if (!files.has(path)) files.set(path, file.id);
  }
  for (const file of plan.files) {
    const source = sources[file.id];
    if (source !== undefined) take(file.id, files.get(source));
  }
  return matched;
}
