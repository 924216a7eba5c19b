import type { Context } from '../context.js';
import { loadRevision, readMarkdown, readPage } from '../content/revision.js';
import { badRequest } from '../errors.js';
import type { CommentRecord, RevisionRecord } from '../records.js';
import { nodePreview } from './node-preview.js';
import type { CommentPlace } from './place.js';

/**
 * What a comment is about: optionally a page of its place's current revision, and a node (a block or an
 * inline, by its `key` in the page's JSON document) of that page, with a short text of it. The response
 * shows the page as it is now, `outdated` once it changed or went away after the comment.
 */

/** Checks what a new comment is about (400 for a page or node that is not there) and returns its fields. */
export async function resolveTarget(
  ctx: Context,
  place: CommentPlace,
  input: { readonly page?: string; readonly node?: string },
): Promise<Pick<CommentRecord, 'page' | 'node'>> {
  if (input.node !== undefined && input.page === undefined) throw badRequest('node: a node is part of a page; give its page too');
  if (input.page === undefined) return {};
  const page = await readPage(ctx.tx, await loadRevision(ctx.tx, place.revision), input.page);
  if (!page) throw badRequest(`page: no page ${input.page} in ${place.name}`);
  if (input.node === undefined) return { page: page.id };
  const preview = await nodePreview(ctx.workers, { markdown: await readMarkdown(ctx.tx, page), node: input.node });
  if (preview === null) throw badRequest(`node: no node ${input.node} in page ${page.id} (nodes are the keys of its format=document form)`);
  return { page: page.id, node: { id: input.node, ...(preview !== '' && { preview }) } };
}

/** Presents the targets of comments of one place, reading each revision once. */
export function targetPresenter(ctx: Context, place: CommentPlace) {
  const revisions = new Map<string, Promise<RevisionRecord>>();
  const revision = (id: string) => {
    if (!revisions.has(id)) revisions.set(id, loadRevision(ctx.tx, id));
    return revisions.get(id)!;
  };
  return async (comment: CommentRecord) => {
    const target = {
      ...(comment.node !== undefined && { node: comment.node }),
      ...(comment.changeRequestId !== undefined && { changeRequest: comment.changeRequestId }),
      space: comment.spaceId,
      revision: comment.revision,
    };
    if (comment.page === undefined) return target;
    const now = await readPage(ctx.tx, await revision(place.revision), comment.page);
    const then = await readPage(ctx.tx, await revision(comment.revision), comment.page);
    const page = now ?? then;
    if (!page) return target;
    return {
      ...target,
      page: {
        id: page.id,
        title: page.title,
        ...(page.emoji !== undefined && { emoji: page.emoji }),
        ...(page.icon !== undefined && { icon: page.icon }),
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
        path: page.path,
        outdated: !now || !then || now.updatedAt !== then.updatedAt,
      },
    };
  };
}
