import type { WriteContext } from '../context.js';
import { openDraft } from '../content/draft.js';
import { pacer } from '../pause.js';
import { TABLES, type ContentDocumentRecord, type RevisionGitRecord, type RevisionRecord } from '../records.js';

/**
 * An export's commit brought back into the space, as an import brings one in: the pages and files it wrote
 * take the blob ids of their files in that commit as their `git.oid` (a page's file holds its front matter
 * and title, so its blob is not its body's). Bodies are immutable and shared by revisions, so the new ids go
 * in a revision of their own over the exported one, with the commit as its `git`; nothing else of it changes.
 */

/** How long the draft is written at a time before other work may run (pause.ts). */
const SLICE_MS = 2;

/**
 * The revision over `exported` whose pages and files have the blob ids of the commit (`oids`, by page or file
 * id), or undefined when they all have them already.
 */
export async function commitExportedOids(ctx: WriteContext, exported: string, oids: Readonly<Record<string, string>>, git: RevisionGitRecord): Promise<RevisionRecord | undefined> {
  const draft = await openDraft(ctx, exported);
  const pace = pacer(SLICE_MS);
  const pages = [];
  for (const [id, oid] of Object.entries(oids)) {
    await pace();
    const page = await draft.page(id);
    if (page?.type === 'document') pages.push({ page, oid });
  }
  const withBodies = pages.filter(({ page }) => page.document !== undefined);
  const documents = (await ctx.tx.getMany(TABLES.contentDocuments, withBodies.map(({ page }) => page.document!))) as (ContentDocumentRecord | undefined)[];
  const bodies = new Map(withBodies.map(({ page }, at) => [page.id, documents[at]]));
  let changed = false;
  for (const { page, oid } of pages) {
    // A page without a body gets an empty one, to carry the id of its file (its title).
    const document = page.document === undefined ? { markdown: '', gitOid: undefined } : bodies.get(page.id);
    if (document === undefined || document.gitOid === oid) continue;
    await pace();
    await draft.updatePage(page.id, { markdown: document.markdown, gitOid: oid, updatedAt: page.updatedAt });
    changed = true;
  }
  for (const [id, oid] of Object.entries(oids)) {
    await pace();
    const file = await draft.file(id);
    if (file === undefined || file.gitOid === oid) continue;
    await draft.putFile({ ...file, gitOid: oid });
    changed = true;
  }
  return changed ? draft.commit({ parents: [exported], type: 'edits', git }) : undefined;
}
