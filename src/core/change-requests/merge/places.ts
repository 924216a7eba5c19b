import { pathUnder, type PageEntry } from '../../content/model.js';
import { withSuffix } from '../../content/slugs.js';
import { keyBetween } from '../../ordering/keys.js';
import type { MergedPage } from './pages.js';
import type { MergeConflict, MergeSide } from './types.js';

/**
 * Makes the merged pages one valid tree, deterministically (docs/api-notes.md, "Change requests: merge and update"):
 * 1. a page whose parent is gone moves up to the parent's nearest ancestor that is still there (looked up
 *    in the change request, then the space, then the base), or to the top level;
 * 2. a cycle (each side moved a page under the other) is broken by putting the page the space moved back
 *    where the change request has it (smallest id first), or at the top level;
 * 3. siblings with the same ordering key (both sides added at the same place) are ordered space first, then
 *    by id, and the later ones get new keys between their neighbours;
 * 4. siblings with the same slug: the page that has that slug at that place in the space keeps it (its URL
 *    is live), the others take the first free `-2`, `-3`, ... in sibling order;
 * 5. paths follow from the slugs, top down.
 */
export function settleTree(pages: Map<string, MergedPage>, sides: { base: MergeSide; ours: MergeSide; theirs: MergeSide }, conflicts: MergeConflict[]): Map<string, PageEntry> {
  const ids = [...pages.keys()].sort();
  const report = (id: string, reason: MergeConflict['reason']) => conflicts.push({ kind: 'page', id, reason });
  const setPlace = (id: string, changes: Partial<PageEntry>, placeFrom: MergedPage['placeFrom']) => {
    const page = pages.get(id)!;
    page.entry = { ...page.entry, ...changes };
    page.placeFrom = placeFrom;
  };

  // 1. Orphans.
  const lookups = [sides.theirs, sides.ours, sides.base];
  for (const id of ids) {
    const parent = pages.get(id)!.entry.parent;
    if (parent === null || pages.has(parent)) continue;
    const seen = new Set<string>();
    let up: string | null = parent;
    while (up !== null && !pages.has(up) && !seen.has(up)) {
      seen.add(up);
      const at: string = up;
      up = lookups.find((side) => side.byId.has(at))?.byId.get(at)?.parent ?? null;
    }
    setPlace(id, { parent: up !== null && pages.has(up) ? up : null }, 'theirs');
    report(id, 'parent-deleted');
  }

  // 2. Cycles: each round finds one and breaks it at one page.
  for (let cycle = findCycle(pages, ids); cycle; cycle = findCycle(pages, ids)) {
    const moved = cycle.filter((id) => pages.get(id)!.placeFrom === 'ours').sort();
    const id = moved[0] ?? [...cycle].sort()[0];
    const theirs = sides.theirs.byId.get(id);
    const back = moved.length > 0 && theirs && (theirs.parent === null || pages.has(theirs.parent));
    setPlace(id, back ? { parent: theirs.parent, order: theirs.order } : { parent: null }, 'theirs');
    report(id, 'cycle');
  }

  // 3 and 4, per list of siblings.
  const children = new Map<string | null, string[]>();
  for (const id of ids) {
    const parent = pages.get(id)!.entry.parent;
    const list = children.get(parent);
    if (list) list.push(id);
    else children.set(parent, [id]);
  }
  for (const siblings of children.values()) {
    orderSiblings(siblings, pages);
    freeSlugs(siblings, pages, sides.ours, report);
  }

  // 5. Paths, top down.
  const out = new Map<string, PageEntry>();
  const pending: [string | null, string | null][] = [[null, null]];
  while (pending.length > 0) {
    const [parent, parentPath] = pending.pop()!;
    for (const id of children.get(parent) ?? []) {
      const entry = pages.get(id)!.entry;
      const path = pathUnder(parentPath, entry.slug);
      out.set(id, { ...entry, path });
      pending.push([id, path]);
    }
  }
  return new Map(ids.map((id) => [id, out.get(id)!]));
}

/** The ids of one cycle of parents, or undefined when the pages form a forest. */
function findCycle(pages: Map<string, MergedPage>, ids: readonly string[]): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of ids) {
    const path: string[] = [];
    let id: string | null = start;
    while (id !== null && pages.has(id) && !state.has(id)) {
      state.set(id, 'open');
      path.push(id);
      id = pages.get(id)!.entry.parent;
    }
    if (id !== null && state.get(id) === 'open') return path.slice(path.indexOf(id));
    for (const walked of path) state.set(walked, 'done');
  }
  return undefined;
}

/** Sorts siblings by ordering key (ties: the space's first, then by id) and gives tied ones distinct keys. */
function orderSiblings(siblings: string[], pages: Map<string, MergedPage>): void {
  const rank = (id: string) => (pages.get(id)!.placeFrom === 'theirs' ? 1 : 0);
  const key = (id: string) => pages.get(id)!.entry.order;
  siblings.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : rank(a) - rank(b) || (a < b ? -1 : 1)));
  for (let i = 1; i < siblings.length; i++) {
    const previous = key(siblings[i - 1]);
    if (key(siblings[i]) > previous) continue;
    const next = siblings.slice(i + 1).map(key).find((order) => order > previous) ?? null;
    const page = pages.get(siblings[i])!;
    page.entry = { ...page.entry, order: keyBetween(previous, next) };
  }
}

/** Gives siblings distinct slugs: the holder in the space keeps a slug, the others take a free suffix. */
function freeSlugs(siblings: readonly string[], pages: Map<string, MergedPage>, ours: MergeSide, report: (id: string, reason: 'slug-taken') => void): void {
  const bySlug = new Map<string, string[]>();
  for (const id of siblings) {
    const slug = pages.get(id)!.entry.slug;
    const holders = bySlug.get(slug);
    if (holders) holders.push(id);
    else bySlug.set(slug, [id]);
  }
  const taken = new Set(bySlug.keys());
  for (const [slug, holders] of bySlug) {
    if (holders.length < 2) continue;
    const live = (id: string) => {
      const page = ours.byId.get(id);
      const entry = pages.get(id)!.entry;
      return page !== undefined && page.slug === slug && page.parent === entry.parent;
    };
    // Stable sort: sibling order among those that are not live.
    const ranked = [...holders].sort((a, b) => Number(live(b)) - Number(live(a)));
    for (const id of ranked.slice(1)) {
      let n = 2;
      while (taken.has(withSuffix(slug, n))) n++;
      const free = withSuffix(slug, n);
      taken.add(free);
      const page = pages.get(id)!;
      page.entry = { ...page.entry, slug: free };
      report(id, 'slug-taken');
    }
  }
}
