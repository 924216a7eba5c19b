import { ApiError, badRequest } from '../errors.js';
import type { Context, PrepareContext, WriteContext } from '../context.js';
import { openDraft, type RevisionDraft } from '../content/draft.js';
import { settlePlan } from '../content/import/local-ids.js';
import { applyPlan, type ImportPlan } from '../content/import/plan.js';
import { MAX_IMPORT_BYTES, MAX_UNZIPPED_BYTES, MAX_ZIP_ENTRIES } from '../content/import/schemas.js';
import { recordMovedPages } from '../content/moved-pages.js';
import { writeOperation } from '../operation.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from '../spaces/access.js';
import { providerOf, repoNameOf, type GitSyncOperationRecord, type GitSyncRecord } from './git-sync-record.js';
import { readRepositoryJob } from './read-job.js';
import { ImportGitRepositoryBody } from './schemas.js';
import { GitTransportError, remoteOf, scrubCredentials, type GitFetchLimits } from './transport.js';

/**
 * Importing a Git repository into a space (POST /v1/spaces/{spaceId}/git/import, 204): the head of the
 * branch is fetched shallow through the Git transport, its docs read in a worker (read-repository.ts, the
 * import's Markdown limits on every body), and the space gets one new revision whose pages and files are
 * the repository's: the repository wins, as a first sync from Git does. The outcome, success or the failure
 * with its reason, is the space's Git Sync state (git/info); a failure leaves the content as it was.
 * Credentials in the URL are used for the connection only: no record, message or state names them.
 */

const DOING = 'import a Git repository';

/** The limits of a repository an import reads: those of a zip import. */
export const GIT_IMPORT_LIMITS: GitFetchLimits = {
  maxFiles: MAX_ZIP_ENTRIES,
  maxFileBytes: MAX_IMPORT_BYTES,
  maxTotalBytes: MAX_UNZIPPED_BYTES,
  maxTransferBytes: MAX_UNZIPPED_BYTES,
};

/** What the preparation found: a plan and the commit it comes from, or why there is none. */
type Prepared = { readonly plan: ImportPlan; readonly commit: string } | { readonly error: string };

/** Fetches and reads the repository; a failure to reach or read it becomes its message, without credentials. */
async function prepareImport(ctx: PrepareContext, input: { url: string; ref: string; repoProjectDirectory?: string }): Promise<Prepared> {
  const remote = remoteOf(input.url);
  try {
    const folder = input.repoProjectDirectory ?? '';
    const branch = input.ref.slice('refs/heads/'.length);
    const fetched = await ctx.gitTransport.fetchTree(remote, branch, folder.replace(/^\.?\/+|\/+$/g, ''), GIT_IMPORT_LIMITS);
    const read = await ctx.workers.run(readRepositoryJob, { files: fetched.files, projectDirectory: folder, where: remote.url }, ctx.closing);
    return { plan: await settlePlan(ctx, read.plan), commit: fetched.commit.oid };
  } catch (error) {
    if (error instanceof GitTransportError || (error instanceof ApiError && error.status === 400)) return { error: scrubCredentials(error.message, remote) };
    throw error;
  }
}

/** Empties a draft: every page and file removed. */
async function emptyDraft(draft: RevisionDraft): Promise<void> {
  for (const id of await draft.childIds(null)) await draft.deletePage(id);
  for (const id of await draft.fileIds()) await draft.deleteFile(id);
}

/** Writes a space's Git Sync state after an operation. */
async function recordOutcome(ctx: WriteContext, spaceId: string, input: { url: string; ref: string; repoTreeURL?: string }, operation: GitSyncOperationRecord, synced: { commit: string; revision: string } | undefined) {
  const previous = (await ctx.tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  const url = remoteOf(input.url).url;
  const record: GitSyncRecord = {
    ...previous,
    id: spaceId,
    url,
    repoName: repoNameOf(url),
    provider: providerOf(url),
    ref: input.ref,
    ...(input.repoTreeURL !== undefined && { treeUrl: input.repoTreeURL }),
    operation,
    ...synced,
    updatedAt: ctx.now,
  };
  await ctx.tx.put(TABLES.gitSyncs, record);
}

/** Imports a Git repository into a space; 204 once done, the outcome in git/info. Needs `triggerGitSync`. */
export const importGitRepository = writeOperation({
  name: 'importGitRepository',
  heavy: true,
  summary: 'Import a Git repository into a space',
  params: { spaceId: Id },
  body: ImportGitRepositoryBody,
  response: null,
  async prepare(ctx, input) {
    // Check who asks before reaching out for them; the transaction checks again.
    await ctx.read((read: Context) => requireSpace(read, input.spaceId, 'triggerGitSync', DOING));
    if (input.standalone) throw badRequest('standalone: imports into a change request are not supported; leave it out to import into the space');
    return { startedAt: ctx.now, outcome: await prepareImport(ctx, input) };
  },
  async run(ctx, input, prepared) {
    const { space } = await requireSpace(ctx, input.spaceId, 'triggerGitSync', DOING, { purge: ctx.tx });
    const { startedAt, outcome } = prepared!;
    const ended = { direction: 'import' as const, startedAt, endedAt: ctx.now };
    if ('error' in outcome) {
      await recordOutcome(ctx, space.id, input, { state: 'failure', ...ended, error: outcome.error }, undefined);
      return;
    }
    const draft = await openDraft(ctx, space.revision);
    await emptyDraft(draft);
    await applyPlan(ctx, draft, outcome.plan);
    const revision = await draft.commit({ parents: [space.revision], type: 'edits' });
    await recordMovedPages(ctx, space.id, space.revision, revision.id);
    const updated: SpaceRecord = { ...space, revision: revision.id, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.spaces, updated);
    await recordOutcome(ctx, space.id, input, { state: 'success', ...ended }, { commit: outcome.commit, revision: revision.id });
  },
});
