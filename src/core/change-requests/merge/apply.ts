import { ownFieldsPatch, type RevisionDraft } from '../../content/draft.js';
import type { FileEntry, PageEntry } from '../../content/model.js';
import { OWN_FIELDS, placeOf } from './pages.js';
import { sameValue } from './pick.js';
import type { MergeSide, MergedContent } from './types.js';

/**
 * Turns a draft opened over one revision (`from`, the same content materialized) into the merged content,
 * with the draft's own operations, so that only the pages the merge changed are rewritten and every rule
 * the draft checks still holds at each step. The order of the steps keeps each one valid:
 * 1. pages that change parent or slug take a temporary slug, and those that change parent wait at the top
 *    level (out of any subtree about to be deleted, and out of each other's way);
 * 2. the pages the result does not have are deleted, subtree by subtree;
 * 3. the new pages are inserted, parents first, keeping their ordering key when it is free;
 * 4. the waiting pages move under their parents, and the temporary slugs become the final ones;
 * 5. fields and bodies are set (a body a side stores by its id, a body the merge wrote as new Markdown),
 *    then each list of siblings the merge touched is put in the result's order,
 *    moving as few pages as possible (those off a longest run already in order);
 * 6. files are added, replaced and removed.
 * `from` and `result` may hold only some of the pages and files (MergeSides, sides.ts): those that
 * changed, their ancestors, and every sibling of a page put at a new place; any other page is the same in
 * the draft and in the result, so it is left alone, and keeps its ordering key among its siblings.
 */
export async function applyMerged(draft: RevisionDraft, from: MergeSide, result: MergedContent): Promise<void> {
  const before = from.byId;
  const after = result.pages;
  const ids = [...after.keys()];
  const kept = ids.filter((id) => before.has(id));
  const added = topDown(after, ids.filter((id) => !before.has(id)));
  const relocated = kept.filter((id) => before.get(id)!.parent !== after.get(id)!.parent || before.get(id)!.slug !== after.get(id)!.slug);
  const reparented = relocated.filter((id) => before.get(id)!.parent !== after.get(id)!.parent);
  // Which ordering keys each parent's children hold in the draft, as the steps go.
  const occupied = new Map<string | null, Set<string>>();
  const occupy = (page: PageEntry) => (occupied.get(page.parent) ?? occupied.set(page.parent, new Set()).get(page.parent)!).add(page.order);
  const vacate = (page: PageEntry) => occupied.get(page.parent)?.delete(page.order);
  for (const page of before.values()) occupy(page);

  // 1.
  for (const id of relocated) await draft.updatePage(id, { slug: temporarySlug(id) });
  for (const id of reparented) {
    vacate(before.get(id)!);
    occupy(await draft.movePage(id, null));
  }
  // 2. Only the top of each deleted subtree: the rest goes with it.
  for (const [id, page] of before) {
    if (after.has(id) || (page.parent !== null && !after.has(page.parent) && before.has(page.parent))) continue;
    for (const gone of await draft.deletePage(id)) vacate(before.get(gone)!);
  }
  // 3.
  for (const id of added) {
    const page = after.get(id)!;
    const free = !occupied.get(page.parent)?.has(page.order);
    const body = result.bodies.get(id);
    occupy(
      await draft.insertPage(
        {
          ...ownFields(page),
          id,
          type: page.type,
          slug: page.slug,
          ...(free && { order: page.order }),
          ...(body !== undefined ? { markdown: body } : { document: page.document }),
          createdAt: page.createdAt,
          updatedAt: page.updatedAt,
        },
        page.parent,
      ),
    );
  }
  // 4.
  for (const id of reparented) {
    const moving = (await draft.page(id))!;
    vacate(moving);
    occupy(await draft.movePage(id, after.get(id)!.parent));
  }
  for (const id of relocated) await draft.updatePage(id, { slug: after.get(id)!.slug });
  // 5.
  for (const id of kept) {
    const [was, page] = [before.get(id)!, after.get(id)!];
    const body = result.bodies.get(id);
    const fields = OWN_FIELDS.some((field) => !sameValue(was[field], page[field]));
    if (!fields && body === undefined && was.document === page.document) continue;
    // A body another revision stores is pointed at, not copied: the page then has the same body as that
    // side, so a later merge does not see a change of it (a copy would be a new document).
    const content = body !== undefined ? { markdown: body } : was.document === page.document ? {} : { document: page.document ?? '' };
    await draft.updatePage(id, { ...(fields && ownFieldsPatch(page)), ...content });
  }
  const touched = new Set([...added, ...kept.filter((id) => !sameValue(placeOf(before.get(id)!), placeOf(after.get(id)!)))].map((id) => after.get(id)!.parent));
  for (const parent of [...touched].sort(nullFirst)) await reorder(draft, parent, after);
  // 6.
  const files = new Map(from.files.map((file) => [file.id, file]));
  for (const [id, file] of result.files) if (!sameValue(files.get(id), file)) await draft.putFile(file as FileEntry);
  for (const id of files.keys()) if (!result.files.has(id)) await draft.deleteFile(id);
}

/** A slug no page can have taken (ids are unique, and `~` is in no derived slug): frees a page's place. */
const temporarySlug = (id: string) => `~merge~${id}`;

const nullFirst = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);

/** A page's own fields as an insert takes them. */
function ownFields(page: PageEntry) {
  return Object.fromEntries(OWN_FIELDS.filter((field) => page[field] !== undefined).map((field) => [field, page[field]])) as Pick<
    PageEntry,
    (typeof OWN_FIELDS)[number]
  >;
}

/** Some page ids, parents before their children. */
function topDown(pages: ReadonlyMap<string, PageEntry>, ids: readonly string[]): string[] {
  const depth = new Map<string, number>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const parent = pages.get(id)!.parent;
    const value = parent === null ? 0 : depthOf(parent) + 1;
    depth.set(id, value);
    return value;
  };
  return [...ids].sort((a, b) => depthOf(a) - depthOf(b) || (a < b ? -1 : 1));
}

/**
 * Puts a parent's children in the draft into the result's order: by their ordering keys in `after`, or
 * for a page `after` does not hold (left alone) by its key in the draft. The longest run of children
 * already in that order stays; each other child moves to just after its predecessor in it.
 */
async function reorder(draft: RevisionDraft, parent: string | null, after: ReadonlyMap<string, PageEntry>): Promise<void> {
  const children = await draft.childOrders(parent);
  const current = children.map((child) => child.id);
  const keys = new Map(children.map(({ id, order }) => [id, after.get(id)?.order ?? order]));
  const target = [...current].sort((a, b) => (keys.get(a)! < keys.get(b)! ? -1 : keys.get(a)! > keys.get(b)! ? 1 : 0));
  if (sameValue(current, target)) return;
  const rank = new Map(target.map((id, i) => [id, i]));
  const stay = new Set(longestIncreasing(current.map((id) => rank.get(id)!)).map((i) => target[i]));
  // The draft's list as the moves go; a page not placed yet may still sit anywhere in it.
  const list = [...current];
  for (let i = 0; i < target.length; i++) {
    const id = target[i];
    if (stay.has(id)) continue;
    list.splice(list.indexOf(id), 1);
    const at = i === 0 ? 0 : list.indexOf(target[i - 1]) + 1;
    await draft.movePage(id, parent, at);
    list.splice(at, 0, id);
  }
}

/** A longest strictly increasing subsequence of numbers (its values), in O(n log n). */
function longestIncreasing(values: readonly number[]): number[] {
  const tails: number[] = [];
  const tailIndex: number[] = [];
  const previous: number[] = new Array(values.length).fill(-1);
  values.forEach((value, i) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (tails[mid] < value) low = mid + 1;
      else high = mid;
    }
    tails[low] = value;
    tailIndex[low] = i;
    previous[i] = low > 0 ? tailIndex[low - 1] : -1;
  });
  const out: number[] = [];
  for (let i = tailIndex[tails.length - 1] ?? -1; i >= 0; i = previous[i]) out.push(values[i]);
  return out.reverse();
}
