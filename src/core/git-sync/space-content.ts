import type { Context } from '../context.js';
import type { PageNode } from '../content/model.js';
import { readMarkdown, readPageTree } from '../content/revision.js';
import type { PlannedMeta } from '../content/import/plan.js';
import type { RevisionRecord } from '../records.js';
import { pacer } from '../pause.js';
import type { SyncedContent, SyncedFile, SyncedPage } from './write-repository.js';

/**
 * A revision as an export writes it (write-repository.ts): its pages with their fields and bodies, and its
 * files with their bytes. A computed page (generated from an OpenAPI specification) has no file in the
 * format and is left out; a link to a page of the space points at that page (`/pages/<id>`).
 */

/** How long the space is read at a time before other work may run (pause.ts). */
const SLICE_MS = 2;

/** The fields of a page that front matter carries. */
function metaOf(page: PageNode): PlannedMeta {
  return {
    ...(page.description !== undefined && { description: page.description }),
    ...(page.emoji !== undefined && { emoji: page.emoji }),
    ...(page.icon !== undefined && { icon: page.icon }),
    ...(page.hidden && { hidden: true }),
    ...(page.noIndex && { noIndex: true }),
    ...(page.noRobotsIndex && { noRobotsIndex: true }),
  };
}

/** Reads a revision's pages and files for an export. */
export async function readSyncedContent(ctx: Pick<Context, 'tx' | 'blobs'>, revision: RevisionRecord): Promise<SyncedContent> {
  const tree = await readPageTree(ctx.tx, revision, 200);
  // A thousand bodies are read in slices: the thread that reads them answers requests too.
  const pace = pacer(SLICE_MS);
  const pagesOf = async (nodes: readonly PageNode[]): Promise<SyncedPage[]> => {
    const pages: SyncedPage[] = [];
    for (const node of nodes) {
      await pace();
      if (node.type === 'computed') continue;
      const url = node.target?.kind === 'url' ? node.target.url : node.target?.kind === 'page' ? `/pages/${node.target.page}` : undefined;
      pages.push({
        id: node.id,
        type: node.type,
        path: node.path,
        title: node.title,
        meta: metaOf(node),
        markdown: node.type === 'document' ? await readMarkdown(ctx.tx, node) : '',
        ...(url !== undefined && { url }),
        pages: await pagesOf(node.pages),
      });
    }
    return pages;
  };
  const files: SyncedFile[] = [];
  for (const file of tree.files) {
    await pace();
    const bytes = await ctx.blobs.get(file.digest);
    if (!bytes) throw new Error(`The bytes of file ${file.id} (${file.digest}) are missing from the blob store`);
    files.push({ id: file.id, name: file.name, bytes });
  }
  return { pages: await pagesOf(tree.pages), files };
}
