import type { FileEntry, PageEntry } from '../../content/model.js';
import { childIds, diffRevisions, readPage, type EntryDiff } from '../../content/revision.js';
import { TABLES, type RevisionRecord } from '../../records.js';
import type { ReadTransaction, StoredRecord } from '../../../store/types.js';
import type { MergeSide, MergedContent } from './types.js';

/**
 * The part of a merge's three revisions that the merge can change or has to look at, read from the
 * store at a cost that follows the size of the change instead of the size of the space:
 *
 * - every page and file that either side changed from the base, with its entry on each side (from the
 *   two diffs, diffRevisions, which skip the subtrees both revisions share);
 * - every ancestor of those pages (orphans, cycles and paths are decided along ancestor chains);
 * - on demand (`missingLists` and `loadChildren`), all the children of a parent under which the result
 *   puts a page somewhere other than where the space has it: only then can ordering ties and slug
 *   clashes with the pages around it arise.
 *
 * Every other page is the same on the three sides and in the result (the merge keeps a page no side
 * changed as it is: never re-keyed, never renamed, never moved, when its siblings and ancestors are
 * known), so the three-way merge of these partial sides gives, for the pages they hold, what it gives
 * for the whole trees; and any subset holding every changed page compares the two sides' distance to
 * the result the same way (the other pages count the same for both).
 */
export class MergeSides {
  readonly base: MergeSide;
  readonly ours: MergeSide;
  readonly theirs: MergeSide;
  /** Parents (null: the top level) whose children are all loaded. */
  private readonly listed = new Set<string | null>();

  private constructor(
    private readonly tx: ReadTransaction,
    /** The space's revision: the pages no side changed are read from it. */
    private readonly space: RevisionRecord,
    private readonly pages: { base: Map<string, PageEntry>; ours: Map<string, PageEntry>; theirs: Map<string, PageEntry> },
    files: { base: FileEntry[]; ours: FileEntry[]; theirs: FileEntry[] },
  ) {
    this.base = { byId: pages.base, files: files.base };
    this.ours = { byId: pages.ours, files: files.ours };
    this.theirs = { byId: pages.theirs, files: files.theirs };
  }

  /** Reads what both sides changed from the base, and the ancestors of the pages they changed. */
  static async load(store: ReadTransaction, base: RevisionRecord, ours: RevisionRecord, theirs: RevisionRecord): Promise<MergeSides> {
    const tx = rememberingNodes(store);
    const [toOurs, toTheirs] = [await diffRevisions(tx, base, ours), await diffRevisions(tx, base, theirs)];
    const pages = threeSides(toOurs.pages, toTheirs.pages);
    const files = threeSides(toOurs.files, toTheirs.files);
    const sides = new MergeSides(tx, ours, pages, { base: [...files.base.values()], ours: [...files.ours.values()], theirs: [...files.theirs.values()] });
    await sides.loadAncestors([...pages.base.values(), ...pages.ours.values(), ...pages.theirs.values()]);
    return sides;
  }

  /**
   * The parents whose children a merged result needs and that are not loaded: those of the pages the
   * result puts at another parent, ordering key or slug than the space has them, or that the request put
   * at a new place (empty: the result is the one the whole trees give).
   */
  missingLists(merged: MergedContent): (string | null)[] {
    const missing = new Set<string | null>();
    for (const [id, page] of merged.pages) {
      const live = this.pages.ours.get(id);
      const kept = live !== undefined && live.parent === page.parent && live.order === page.order && live.slug === page.slug;
      // A page the other side put at a new place may tie with a sibling not loaded yet, and the key that
      // breaks the tie may happen to be the one the space has: its siblings are needed even when it looks kept.
      const [was, put] = [this.pages.base.get(id), this.pages.theirs.get(id)];
      const placedByOther = put !== undefined && (was === undefined || was.parent !== put.parent || was.order !== put.order);
      if ((!kept || placedByOther) && !this.listed.has(page.parent)) missing.add(page.parent);
    }
    return [...missing];
  }

  /**
   * Loads every child of some parents (null: the top level). The children no side changed are those
   * of the space's revision that are not loaded yet: a parent the space does not have has none.
   */
  async loadChildren(parents: readonly (string | null)[]): Promise<void> {
    for (const parent of parents) {
      this.listed.add(parent);
      // Every parent a result names is loaded (an ancestor of a changed page): the space has it or not.
      if (parent !== null && !this.pages.ours.has(parent)) continue;
      for (const id of await childIds(this.tx, this.space.content, parent)) {
        if (!this.known(id)) this.addUnchanged((await readPage(this.tx, this.space, id))!);
      }
    }
  }

  /** Loads the ancestors of some pages that are not loaded yet, up to the top level. */
  private async loadAncestors(pages: readonly PageEntry[]): Promise<void> {
    const pending = pages.map((page) => page.parent);
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (id === null || this.known(id)) continue;
      // A parent no side changed: each side has it, as the space does.
      const page = await readPage(this.tx, this.space, id);
      if (!page) throw new Error(`Merge: the parent page ${id} is missing from revision ${this.space.id}`);
      this.addUnchanged(page);
      pending.push(page.parent);
    }
  }

  /** Whether a page is loaded: changed by a side (then on some of the sides), or added as unchanged. */
  private known(id: string): boolean {
    return this.pages.base.has(id) || this.pages.ours.has(id) || this.pages.theirs.has(id);
  }

  /** Adds a page that is the same on the three sides. */
  private addUnchanged(page: PageEntry): void {
    this.pages.base.set(page.id, page);
    this.pages.ours.set(page.id, page);
    this.pages.theirs.set(page.id, page);
  }
}

/**
 * A transaction that reads each map node once: nodes never change, and looking up pages one by one walks
 * the same root and inner nodes again and again.
 */
function rememberingNodes(tx: ReadTransaction): ReadTransaction {
  const nodes = new Map<string, Promise<StoredRecord | undefined>>();
  const get = (table: string, id: string) => {
    if (table !== TABLES.contentNodes) return tx.get(table, id);
    let node = nodes.get(id);
    if (!node) nodes.set(id, (node = tx.get(table, id)));
    return node;
  };
  return {
    get,
    getMany: (table, ids) => (table === TABLES.contentNodes ? Promise.all(ids.map((id) => get(table, id))) : tx.getMany(table, ids)),
    list: (table, query) => tx.list(table, query),
  };
}

/**
 * The entries of the three sides for every id that either diff names: from the base to ours and from
 * the base to theirs. An id one diff does not name is, on that side, as in the base (or absent).
 */
function threeSides<T extends { id: string }>(toOurs: EntryDiff<T>, toTheirs: EntryDiff<T>) {
  const base = new Map<string, T>();
  const fill = (diff: EntryDiff<T>) => {
    const side = new Map<string, T>();
    const named = new Set<string>();
    for (const entry of diff.removed) {
      base.set(entry.id, entry);
      named.add(entry.id);
    }
    for (const entry of diff.added) {
      side.set(entry.id, entry);
      named.add(entry.id);
    }
    for (const { before, after } of diff.changed) {
      base.set(before.id, before);
      side.set(after.id, after);
      named.add(after.id);
    }
    return { side, named };
  };
  const [mine, other] = [fill(toOurs), fill(toTheirs)];
  // An id only the other diff names is as in the base on this side.
  const complete = ({ side, named }: ReturnType<typeof fill>) => {
    for (const [id, entry] of base) if (!named.has(id)) side.set(id, entry);
    return side;
  };
  return { base, ours: complete(mine), theirs: complete(other) };
}
