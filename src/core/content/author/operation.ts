import * as v from 'valibot';
import { assertContentEditable, baseRevisionOf, loadChangeRequest } from '../../change-requests/access.js';
import { changeRequestFigures, changeRequestObject } from '../../change-requests/present.js';
import { ChangeRequestSchema } from '../../change-requests/schemas.js';
import { writeOperation } from '../../operation.js';
import { Id, QueryBoolean, Url } from '../../schemas.js';
import { commitToChangeRequest, openDraft } from '../draft.js';
import { presentFile } from '../present.js';
import { RevisionFileSchema } from '../schemas.js';
import { applyBatch } from './apply.js';
import { storeBatchFiles, type StoredFiles } from './files.js';
import { ContentChanges } from './schemas.js';

/** What a batch did, as `compat=false` answers it: the change request and each page the batch touched. */
const ContentUpdateSchema = v.object({
  changeRequest: ChangeRequestSchema,
  changes: v.array(
    v.variant('object', [
      v.object({ object: v.literal('created_page'), ref: v.optional(v.string()), page: v.object({ object: v.literal('page'), id: v.string(), urls: v.object({ location: Url }) }) }),
      v.object({ object: v.literal('updated_page'), page: v.object({ object: v.literal('page'), id: v.string(), urls: v.object({ location: Url }) }) }),
      v.object({ object: v.literal('deleted_page'), page: v.string() }),
    ]),
  ),
  insertedFiles: v.array(RevisionFileSchema),
});

/**
 * Applies an ordered batch of up to 50 content changes to a change request, atomically, as one new
 * revision (parent: the request's revision): insert_page, update_page (fields, body, move with into/at),
 * delete_page (with its subpages), revert_page (a page, or some of its blocks, as a revision had it), insert_files (bytes inline as base64, or fetched from a URL, stored in
 * the blob store first). If any change is invalid nothing is applied. Needs the edit level on a `live`
 * space and a request in `draft` or `open`. Answers the change request (`compat=false`: with the pages
 * the batch touched and the files it inserted).
 */
export const updateChangeRequestContent = writeOperation({
  name: 'updateChangeRequestContent',
  summary: 'Apply a batch of content changes to a change request',
  params: { spaceId: Id, changeRequestId: Id },
  query: { compat: v.optional(QueryBoolean, true) },
  body: { changes: ContentChanges },
  response: v.union([ChangeRequestSchema, ContentUpdateSchema]),
  // Only files have bytes to store first; a batch without them runs in its transaction alone.
  prepares: (input) => input.changes.some((change) => change.operation === 'insert_files'),
  async prepare(ctx, input): Promise<StoredFiles | undefined> {
    // Check who asks before fetching or storing anything for them; the transaction checks again.
    await ctx.read(async (read) => assertContentEditable(await loadChangeRequest(read, input.spaceId, input.changeRequestId, 'edit', 'change its content')));
    return storeBatchFiles(ctx, input.changes);
  },
  async run(ctx, { spaceId, changeRequestId, compat, changes }, stored = new Map()) {
    const access = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', 'change its content', { purge: ctx.tx });
    assertContentEditable(access);
    const { changeRequest, space } = access;
    // What the answer shows besides the record is read with the content (one round trip on PostgreSQL): the batch changes none of it.
    const [draft, figures] = await Promise.all([openDraft(ctx, changeRequest.revision).then((opened) => opened.readPageRoots()), changeRequestFigures(ctx, changeRequest)]);
    const outcome = await applyBatch(ctx, draft, { organizationId: space.organizationId, baseRevision: baseRevisionOf(changeRequest) }, changes, stored);
    const updated = await commitToChangeRequest(ctx, draft, changeRequest);
    const presented = changeRequestObject(ctx, updated, space, figures);
    if (compat) return presented;
    const location = (id: string) => ctx.urls.api(`/spaces/${spaceId}/change-requests/${changeRequest.id}/content/page/${id}`);
    return {
      changeRequest: presented,
      changes: outcome.pages.map((page) =>
        page.object === 'deleted_page'
          ? { object: 'deleted_page' as const, page: page.id }
          : { object: page.object, ...(page.ref !== undefined && { ref: page.ref }), page: { object: 'page' as const, id: page.id, urls: { location: location(page.id) } } },
      ),
      insertedFiles: await Promise.all(outcome.insertedFiles.map((file) => presentFile(ctx, file, { metadata: true }))),
    };
  },
});
