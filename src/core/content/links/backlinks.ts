import { notFound } from '../../errors.js';
import { listQuery, mapPage } from '../../pagination.js';
import type { RevisionRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { readMap } from '../btree.js';
import type { PageEntry } from '../model.js';
import { nameOf, twins } from '../read.js';
import { readFile, readMarkdown } from '../revision.js';
import { indexAtHand, linksIndexOf, readOutline, type IndexContext } from './links-index.js';
import { pageOfSorted } from './paging.js';
import { pageLocation, whereOf } from './present.js';
import { fileKey, scanPage } from './scan.js';
import { BacklinkListSchema } from './schemas.js';

/**
 * The ids of the pages of a revision that link to or show a file, sorted (undefined: no such file). From
 * the revision's index when it is cached or derivable; otherwise every body is read but only those that
 * contain `/files/<id>` are parsed (stored bodies are canonical Markdown, where such a URL is written as
 * is), so a cold read of a large space does not wait for every body to be parsed.
 */
async function backlinksOf(ctx: IndexContext, revision: RevisionRecord, fileId: string): Promise<readonly string[] | undefined> {
  if (indexAtHand(ctx, revision)) {
    const index = await linksIndexOf(ctx, revision);
    if (!index.files.has(fileId)) return undefined;
    return index.targets.get(fileKey(fileId))?.locations ?? [];
  }
  if (!(await readFile(ctx.tx, revision, fileId))) return undefined;
  const url = `/files/${fileId}`;
  const pages: string[] = [];
  for await (const [id, value] of readMap(ctx.tx, revision.content.pages).entries()) {
    const page = value as PageEntry;
    if (page.type !== 'document') continue;
    const markdown = await readMarkdown(ctx.tx, page);
    if (markdown.includes(url) && (await scanPage(page, markdown, readOutline(ctx))).refs.some((ref) => ref.kind === 'file' && ref.file === fileId)) pages.push(id);
  }
  // The pages map iterates by id: already sorted.
  return pages;
}

/**
 * Lists the backlinks of a file of a space or a change request: the pages whose bodies link to it or
 * show it (`/files/<id>`), by page id, each with the revision read as its `versionContext`.
 */
export const [listSpaceFileBacklinks, listChangeRequestFileBacklinks] = twins({
  space: ['listSpaceFileBacklinks', 'List the pages that link to a file of a space'],
  changeRequest: ['listChangeRequestFileBacklinks', 'List the pages that link to a file of a change request'],
  params: { fileId: Id },
  query: listQuery,
  response: BacklinkListSchema,
  run: async (ctx, target, input) => {
    const pages = await backlinksOf(ctx, target.revision, input.fileId);
    if (!pages) throw notFound(`No file ${input.fileId} in ${nameOf(target)}`);
    const where = whereOf(target);
    return mapPage(pageOfSorted(pages, (id) => id, input), (id) => pageLocation(where, id));
  },
});
