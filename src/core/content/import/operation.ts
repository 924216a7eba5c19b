import { assertContentEditable, loadChangeRequest } from '../../change-requests/access.js';
import type { Context, PrepareContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { TABLES, type SpaceRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { requireSpace, type ReachOptions } from '../../spaces/access.js';
import { commitToChangeRequest, openDraft } from '../draft.js';
import { recordMovedPages } from '../moved-pages.js';
import { fetchSource } from './fetch-source.js';
import { settlePlan } from './local-ids.js';
import { planImportJob, type PlanImportInput } from './plan-job.js';
import { applyPlan, type ImportPlan } from './plan.js';
import { ImportBody, ImportResultSchema, SUPPORTED_SOURCES, type ImportSource } from './schemas.js';

/**
 * Importing content from a URL into a space or a change request, as one new revision. Everything that
 * reaches out or takes time (the permission check first, then fetching, unpacking, parsing, storing file
 * bytes) happens in `prepare`, outside any transaction; the transaction checks the permissions again and
 * appends the planned pages at the end of the top level. Any failure is a 4xx and no revision is made.
 */

const DOING = 'import content';

/**
 * Fetches a source and plans what importing it makes: the reading of the content is a job (plan-job.ts, in a
 * worker thread where the platform has them), then its pages get the platform's ids and its files are
 * stored. A 400 for unsupported sources and unusable content.
 */
async function planImport(ctx: PrepareContext, url: string, source: ImportSource): Promise<ImportPlan> {
  if (!(SUPPORTED_SOURCES as readonly string[]).includes(source)) {
    throw badRequest(`source: "${source}" cannot be imported; the supported sources are ${SUPPORTED_SOURCES.join(', ')}`);
  }
  const fetched = await fetchSource(ctx, url);
  const plan = await ctx.workers.run(planImportJob, { url, source: source as PlanImportInput['source'], fetched }, ctx.closing);
  return settlePlan(ctx, plan);
}

/** Checks that the caller may change a change request's content and that it can change now. */
async function changeRequestForImport(ctx: Context, spaceId: string, changeRequestId: string, options: ReachOptions = {}) {
  const access = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', DOING, options);
  assertContentEditable(access);
  return access;
}

/**
 * Imports content into a space: a new revision of the space (parent: its current one) holding its pages
 * as they were, then the imported pages at the end of the top level, and their files. Needs the edit
 * level on a `live` space. Sources: `markdown` (one page), `html` (one page, the whole body), `website`
 * (one page, its main content), `zip` (a folder of Markdown files and images: a page tree).
 */
export const importContent = writeOperation({
  name: 'importContent',
  heavy: true,
  summary: 'Import content into a new revision of a space',
  params: { spaceId: Id },
  body: ImportBody,
  response: ImportResultSchema,
  async prepare(ctx, { spaceId, url, source }) {
    // Check who asks before fetching anything for them; the transaction checks again.
    await ctx.read((read) => requireSpace(read, spaceId, 'edit', DOING));
    return planImport(ctx, url, source);
  },
  async run(ctx, { spaceId }, plan) {
    const { space } = await requireSpace(ctx, spaceId, 'edit', DOING, { purge: ctx.tx });
    const draft = await openDraft(ctx, space.revision);
    const counts = await applyPlan(ctx, draft, plan);
    const revision = await draft.commit({ parents: [space.revision], type: 'edits' });
    await recordMovedPages(ctx, space.id, space.revision, revision.id);
    const updated: SpaceRecord = { ...space, revision: revision.id, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.spaces, updated);
    return { revision: revision.id, ...counts };
  },
});

/**
 * Imports content into a change request: a new revision of the request, made as importContent makes one
 * of a space. Needs the edit level on a `live` space and a request in `draft` or `open`; the caller
 * becomes one of the request's contributors.
 */
export const importContentInChangeRequest = writeOperation({
  name: 'importContentInChangeRequest',
  heavy: true,
  summary: 'Import content into a new revision of a change request',
  params: { spaceId: Id, changeRequestId: Id },
  body: ImportBody,
  response: ImportResultSchema,
  async prepare(ctx, { spaceId, changeRequestId, url, source }) {
    await ctx.read((read) => changeRequestForImport(read, spaceId, changeRequestId));
    return planImport(ctx, url, source);
  },
  async run(ctx, { spaceId, changeRequestId }, plan) {
    const { changeRequest } = await changeRequestForImport(ctx, spaceId, changeRequestId, { purge: ctx.tx });
    const draft = await openDraft(ctx, changeRequest.revision);
    const counts = await applyPlan(ctx, draft, plan);
    const updated = await commitToChangeRequest(ctx, draft, changeRequest);
    return { revision: updated.revision, ...counts };
  },
});
