import type { Ports, WriteContext } from '../context.js';
import { commitMerge } from '../change-requests/merge/commit.js';
import { settlePlan } from '../content/import/local-ids.js';
import { recordMovedPages } from '../content/moved-pages.js';
import { loadPageTree } from '../content/revision.js';
import type { ReadTransaction } from '../../store/types.js';
import { TABLES, type RevisionGitRecord, type RevisionRecord, type SpaceRecord } from '../records.js';
import { spaceScope } from '../scopes.js';
import { requireSpace } from '../spaces/access.js';
import { platformTrailerOf } from './commit-trailer.js';
import { conflictError, trueConflicts } from './import-conflicts.js';
import type { FetchedRepository } from './fetch-repository.js';
import { isSyncedWith, type GitSyncRecord } from './git-sync-record.js';
import { recordOperation, type SyncedState } from './git-sync-state.js';
import { syncSiteRedirects } from './import-redirects.js';
import { matchRepository, type SyncBase } from './match-repository.js';
import { writeAs, type GitImportCaller, type GitImportInput } from './queued-work.js';
import { commitRepositorySide } from './repository-revision.js';
import { openImportChangeRequest } from './standalone-import.js';
import { settledIds } from './settled-ids.js';
import { remoteOf } from './transport.js';

/**
 * Making a space's new revision from a repository read: a three-way merge, as a change request's. The
 * base is the revision of the last sync (the repository's content then), one side the space as it is
 * now, the other the repository (repository-revision.ts): platform edits the repository did not touch
 * survive, and what both changed differently is a conflict that fails the import, naming the pages,
 * unless `force` lets the repository win (as a change request wins a merge). The first import has no
 * base: the repository's content replaces the space's. The space's history gains the repository's side
 * (parent: the base) and, when the space changed since the last sync, the merge of the two. A standalone
 * import puts that result in a new change request instead, and leaves the sync's base as it was.
 */

/** What the caller is doing, for permission errors. */
export const IMPORT_DOING = 'import a Git repository';

/** How many times the work reads the base again when another sync of the space ended meanwhile. */
const ATTEMPTS = 3;

/**
 * The base of the space's next import from a repository and branch: the last sync's, if it was with that
 * one and its revision is still there. After a switch to another repository or branch there is none: the
 * old base says nothing of what the new one changed, so the import is that repository's first, as when the
 * hosted platform's sync is set up with another repository and the content comes from it.
 */
async function loadBase(tx: ReadTransaction, spaceId: string, repository: { url: string; ref: string }): Promise<(SyncBase & { readonly revision: string }) | undefined> {
  const sync = (await tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  if (sync?.revision === undefined || !isSyncedWith(sync, repository.url, repository.ref) || !(await tx.get(TABLES.revisions, sync.revision))) return undefined;
  return { revision: sync.revision, tree: await loadPageTree(tx, sync.revision), paths: sync.paths ?? {} };
}

/** Whether an operation with `timestamp` comes before the last one applied, and is skipped. */
const isStale = (timestamp: string | undefined, sync: GitSyncRecord | undefined) =>
  timestamp !== undefined && sync?.timestamp !== undefined && Date.parse(timestamp) < Date.parse(sync.timestamp);

/** The revision `git` of an imported commit: the platform made it when it carries the platform's trailer (another space's export). */
function gitOf(input: GitImportInput, commit: FetchedRepository['commit']): RevisionGitRecord {
  // repoCommitURL is a prefix: the commit's URL is it and the commit's id.
  const url = input.repoCommitURL === undefined ? {} : { url: `${input.repoCommitURL.replace(/\/+$/, '')}/${commit.oid}` };
  return { oid: commit.oid, message: commit.message, ref: input.ref, ...url, createdByService: platformTrailerOf(commit.message) !== undefined };
}

/**
 * Imports a repository read into the space: matches it with the base outside any transaction, then
 * writes in one transaction that checks the caller's permission again. Should another sync end between
 * the two, it starts again from the new base.
 */
export async function applyImport(ports: Ports, caller: GitImportCaller, input: GitImportInput, repository: FetchedRepository): Promise<void> {
  const url = remoteOf(input.url).url;
  for (let attempt = 1; ; attempt++) {
    const base = await ports.store.read((tx) => loadBase(tx, input.spaceId, { url, ref: input.ref }));
    const plan = await settlePlan(ports, repository.plan, base === undefined ? new Map() : matchRepository(repository.plan, repository.sources, base));
    const paths: Record<string, string> = {};
    for (const [local, id] of settledIds(repository.plan, plan)) if (repository.sources[local] !== undefined) paths[id] = repository.sources[local];
    const done = await writeAs(ports, caller, async (ctx) => {
      // Imports and merges into one space queue instead of failing each other.
      await ctx.tx.lock(spaceScope(input.spaceId), 'exclusive');
      const { space } = await requireSpace(ctx, input.spaceId, 'triggerGitSync', IMPORT_DOING, { purge: ctx.tx });
      const sync = (await ctx.tx.get(TABLES.gitSyncs, space.id)) as GitSyncRecord | undefined;
      const current = sync !== undefined && isSyncedWith(sync, url, input.ref) ? sync.revision : undefined;
      if (current !== base?.revision && attempt < ATTEMPTS) return false;
      const success = { state: 'success' as const, direction: 'import' as const, startedAt: input.startedAt, endedAt: ctx.now };
      // The commit synced last, or one the platform made of this space (an export coming back): nothing new.
      const unchanged = ((base !== undefined && sync?.commit === repository.commit.oid) || platformTrailerOf(repository.commit.message)?.space === space.id) && !input.force;
      if (isStale(input.timestamp, sync) || unchanged) {
        await recordOperation(ctx.tx, space.id, input, success, { operationId: input.operationId, now: ctx.now });
        return true;
      }
      const from = base?.revision ?? space.revision;
      const side = { pages: base?.tree.byId ?? new Map(), files: new Map(base?.tree.files.map((file) => [file.id, file])) };
      // A standalone import's revisions belong to the change request it opens.
      const changeRequestId = input.standalone ? ctx.ids.id() : undefined;
      const git = gitOf(input, repository.commit);
      const theirs = await commitRepositorySide(ctx, from, plan, side, { parents: [from], type: 'edits', git, ...(changeRequestId !== undefined && { changeRequestId }) });
      const merge = { force: input.force === true, changeRequestId, git };
      const revision = base === undefined || space.revision === base.revision ? theirs : await mergeWithRepository(ctx, space, base.revision, theirs, merge);
      if (changeRequestId !== undefined) {
        await openImportChangeRequest(ctx, space, changeRequestId, revision, repository.commit.message);
        await recordOperation(ctx.tx, space.id, input, success, { operationId: input.operationId, now: ctx.now });
        return true;
      }
      await recordMovedPages(ctx, space.id, space.revision, revision.id);
      const updated: SpaceRecord = { ...space, revision: revision.id, updatedAt: ctx.now };
      await ctx.tx.put(TABLES.spaces, updated);
      const redirects = await syncSiteRedirects(ctx, space.id, revision, { redirects: repository.redirects, paths }, sync?.redirects ?? []);
      const synced: SyncedState = { commit: repository.commit.oid, revision: theirs.id, syncedUrl: url, syncedRef: input.ref, paths, redirects, ...(input.timestamp !== undefined && { timestamp: input.timestamp }) };
      await recordOperation(ctx.tx, space.id, input, success, { operationId: input.operationId, now: ctx.now, synced });
      return true;
    });
    if (done) return;
  }
}

/** The merge of the space's changes since the last sync with the repository's; a 409 naming the pages both changed, unless `force`. */
async function mergeWithRepository(ctx: WriteContext, space: SpaceRecord, base: string, theirs: RevisionRecord, options: { force: boolean; changeRequestId?: string; git: RevisionGitRecord }): Promise<RevisionRecord> {
  const { changeRequestId, git } = options;
  const merged = await commitMerge(ctx, { base, ours: space.revision, theirs: theirs.id, parents: [space.revision, theirs.id], type: 'merge', git, ...(changeRequestId !== undefined && { changeRequestId }) });
  const clashes = trueConflicts(merged.conflicts);
  if (clashes.length > 0 && !options.force) throw await conflictError(ctx, clashes, [theirs, space.revision]);
  return merged.revision;
}
