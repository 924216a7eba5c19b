import type { WriteContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { keyBetween } from '../../ordering/keys.js';
import { TABLES, type RevisionRecord } from '../../records.js';
import { ownFieldsPatch, type RevisionDraft } from '../draft.js';
import type { PageEntry } from '../model.js';
import { readMarkdown, readPage } from '../revision.js';
import { markdownWork } from '../markdown-work.js';
import { revertBlocksJob } from './revert-blocks.js';

/**
 * revert_page: sets one page of a change request back to its state in an earlier revision of the space
 * (by default the request's base). Without `block`, the whole page: a page the revision does not have is
 * deleted (with its subpages, which must be new too), a page the draft does not have is put back where it
 * was (its parent must be there), any other page gets back its own fields, body, slug and place. Its
 * subpages are pages of their own: each is reverted by its own change. With `block`, only those blocks
 * of the body (revert-blocks.ts); the page's fields stay.
 */

/** What a revert did to pages, for the batch's outcome. */
export type RevertOutcome = { readonly object: 'created_page' | 'updated_page' | 'deleted_page'; readonly id: string }[];

/** A revert_page change, resolved: the page, the revision to go back to, and the blocks (all when absent). */
export interface RevertRequest {
  readonly page: string;
  readonly revision: string;
  readonly blocks?: readonly string[];
}

/** Loads the revision a revert goes back to: one of the draft's space (400 otherwise). */
async function revisionToRevertTo(ctx: WriteContext, draft: RevisionDraft, id: string): Promise<RevisionRecord> {
  const revision = (await ctx.tx.get(TABLES.revisions, id)) as RevisionRecord | undefined;
  if (!revision || revision.spaceId !== draft.base.spaceId) throw badRequest(`revision: no revision ${id} in this space`);
  return revision;
}

/** Applies a revert_page change to a draft. */
export async function revertPage(ctx: WriteContext, draft: RevisionDraft, request: RevertRequest): Promise<RevertOutcome> {
  const revision = await revisionToRevertTo(ctx, draft, request.revision);
  const was = await readPage(ctx.tx, revision, request.page);
  const now = await draft.page(request.page);
  if (!was && !now) throw badRequest(`page: no page ${request.page} here or in revision ${revision.id}`);
  if (request.blocks !== undefined) return revertPageBlocks(ctx, draft, revision, was, now, request.blocks);
  if (!was) return removeAddedPage(ctx, draft, revision, now!);
  if (!now) {
    await restoreDeletedPage(draft, was);
    return [{ object: 'created_page', id: was.id }];
  }
  await resetPage(draft, was, now);
  return [{ object: 'updated_page', id: was.id }];
}

/** Reverts blocks of a document page that both the draft and the revision have. */
async function revertPageBlocks(
  ctx: WriteContext,
  draft: RevisionDraft,
  revision: RevisionRecord,
  was: PageEntry | undefined,
  now: PageEntry | undefined,
  blocks: readonly string[],
): Promise<RevertOutcome> {
  if (!was || !now) throw badRequest(`block: page ${(was ?? now)!.id} is ${was ? 'not here' : `not in revision ${revision.id}`}: revert the whole page instead`);
  if (now.type !== 'document' || was.type !== 'document') throw badRequest(`block: page ${now.id} is a ${now.type === 'document' ? was.type : now.type} page, which has no blocks`);
  const current = await draft.markdownOf(now);
  const earlier = await readMarkdown(ctx.tx, was);
  const input = { current, earlier, keys: blocks, where: { page: now.id, revision: revision.id } };
  const markdown = await markdownWork(ctx.workers, revertBlocksJob, input, current.length + earlier.length);
  if (markdown !== current) await draft.updatePage(now.id, { markdown });
  return [{ object: 'updated_page', id: now.id }];
}

/** Deletes a page the revision does not have, with its subpages, none of which the revision may have. */
async function removeAddedPage(ctx: WriteContext, draft: RevisionDraft, revision: RevisionRecord, page: PageEntry): Promise<RevertOutcome> {
  const pending = await draft.childIds(page.id);
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (await readPage(ctx.tx, revision, id)) {
      throw badRequest(`page: page ${page.id} holds page ${id}, which revision ${revision.id} has: revert or move page ${id} first`);
    }
    pending.push(...(await draft.childIds(id)));
  }
  return (await draft.deletePage(page.id)).map((id) => ({ object: 'deleted_page' as const, id }));
}

/**
 * Frees the ordering key a page had in the revision among its parent's children in the draft, so that the
 * page goes back with it: its place is then the revision's again, and a merge sees no change of it (an
 * edit would clash with a deletion on the space). A page holding that key now cannot have it in the
 * revision (keys are unique among siblings there): its place is new either way, so it moves to a key just
 * after, keeping its position.
 */
async function freeKeyOf(draft: RevisionDraft, was: PageEntry): Promise<{ order: string }> {
  // The page itself may be among them (moving within its parent): the key its holder gets must not be its.
  const siblings = await draft.childOrders(was.parent);
  const holder = siblings.findIndex((sibling) => sibling.order === was.order);
  if (holder >= 0 && siblings[holder].id !== was.id) {
    const next = siblings[holder + 1]?.order ?? null;
    await draft.movePage(siblings[holder].id, was.parent, { order: keyBetween(was.order, next) });
  }
  return { order: was.order };
}

/** Checks that the parent a page had in the revision is in the draft. */
async function requireParent(draft: RevisionDraft, was: PageEntry): Promise<void> {
  if (was.parent !== null && !(await draft.page(was.parent))) {
    throw badRequest(`page: page ${was.id} was under page ${was.parent}, which is not here: revert page ${was.parent} first`);
  }
}

/** Puts back a page the draft does not have, as the revision has it (its body shared, not copied). */
async function restoreDeletedPage(draft: RevisionDraft, was: PageEntry): Promise<void> {
  await requireParent(draft, was);
  const place = await freeKeyOf(draft, was);
  await draft.insertPage(
    {
      ...ownFieldsPatch(was),
      ...place,
      id: was.id,
      type: was.type,
      title: was.title,
      slug: was.slug,
      ...(was.document !== undefined && { document: was.document }),
      createdAt: was.createdAt,
      updatedAt: was.updatedAt,
    },
    was.parent,
  );
}

/** Gives a page both have its own fields, body, place and slug as the revision has them. */
async function resetPage(draft: RevisionDraft, was: PageEntry, now: PageEntry): Promise<void> {
  await draft.updatePage(was.id, {
    ...ownFieldsPatch(was),
    ...(was.type === 'document' && { document: was.document ?? '' }),
    updatedAt: was.updatedAt,
  });
  if (was.parent !== now.parent || was.order !== now.order) {
    await requireParent(draft, was);
    await draft.movePage(was.id, was.parent, await freeKeyOf(draft, was));
  }
  if (was.slug !== now.slug) await draft.updatePage(was.id, { slug: was.slug, updatedAt: was.updatedAt });
}
