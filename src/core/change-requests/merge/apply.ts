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
 *    then the pages of each list of siblings the merge touched take the result's ordering keys;
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
  for (const parent of [...touched].sort(nullFirst)) await placeChildren(draft, parent, after);
  // 6.
  const files = new Map(from.files.map((file) => [file.id, file]));
  for (const [id, file] of result.files) if (!sameValue(files.get(id), file)) await draft.putFile(file as FileEntry);
  for (const id of files.keys()) if (!result.files.has(id)) await draft.deleteFile(id);
}

/** A slug no page can have taken (ids are unique, and `~` is in no derived slug): frees a page's place. */
const temporarySlug = (id: string) => `~merge~${id}`;

/** An ordering key no page has (`~` is no digit of a key), held only while siblings trade keys. */
const temporaryKey = (id: string) => `~merge~${id}`;

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
 * Gives a parent's children in the draft the ordering keys the result has for them (a page `after` does
 * not hold was left alone and keeps its key, which the result shares). Positions would give the same order
 * but new keys, and a key the result does not have reads as a move of the page to the next merge: a page
 * the space added, put after the request's page that took its key, would then clash with the space's
 * deletion of it. Those that change go out of each other's way first (two may swap keys).
 */
async function placeChildren(draft: RevisionDraft, parent: string | null, after: ReadonlyMap<string, PageEntry>): Promise<void> {
  const moving = (await draft.childOrders(parent)).filter(({ id, order }) => after.has(id) && after.get(id)!.order !== order).map(({ id }) => id);
  for (const id of moving) await draft.movePage(id, parent, { order: temporaryKey(id) });
  for (const id of moving) await draft.movePage(id, parent, { order: after.get(id)!.order });
}
