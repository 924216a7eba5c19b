import type { Ports } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import { TABLES, type RevisionRecord, type SpaceRecord } from '../records.js';
import { spaceScope } from '../scopes.js';
import { isPlatformCommitOf, withPlatformTrailer } from './commit-trailer.js';
import { headDocs, projectFolder } from './export-edit.js';
import { isSyncedWith, type GitSyncRecord } from './git-sync-record.js';
import { inGitTurn } from './git-turn.js';
import { GIT_IMPORT_LIMITS } from './fetch-repository.js';
import { recordOperation, type RepositoryRequest, type SyncedState } from './git-sync-state.js';
import { commitExportedOids } from './exported-oids.js';
import { writeAs, type GitImportCaller } from './queued-work.js';
import { joinPath } from './repo-paths.js';
import { readSyncedContent } from './space-content.js';
import { GitTransportError, scrubCredentials, type FetchedTree, type GitCommitOutcome, type GitPerson, type GitRemote, type GitTreeEdit } from './transport.js';
import { writeRepositoryJob } from './write-job.js';

/**
 * An export's run, in the background after its 204 (export-repository.ts queues it): in the space's Git
 * turn (git-turn.ts), the space's current revision is written in the repository format (a job, off the
 * main thread) and committed on the branch's head through the Git transport, then the outcome is recorded
 * as the space's Git Sync state. Refused without `force` when the branch has commits the space has not
 * synced (a non-fast-forward of the space over them); no commit when nothing changed.
 */

/** The committer of every export: the platform, named so in docs/git-sync.md. */
export const PLATFORM_COMMITTER: GitPerson = { name: 'docs-platform', email: 'git-sync@docs-platform.invalid' };

/** An export to run: what the request asked, with the remote's credentials held in memory only. */
export interface ExportRun {
  readonly spaceId: string;
  /** The id of its operation in the space's Git Sync state. */
  readonly operationId: string;
  readonly startedAt: string;
  /** The remote, its credentials apart from its URL. */
  readonly remote: GitRemote;
  /** The repository as the request named it (credentials included, for this run only). */
  readonly request: RepositoryRequest;
  readonly commitMessage: string;
  readonly projectDirectory: string;
  readonly commitUrl?: string;
  readonly force: boolean;
  /** A snapshot: the repository is written, but the space is not linked to the commit. */
  readonly standalone: boolean;
  readonly timestamp?: string;
  readonly author: GitPerson;
  /** Who asked, for the revision that brings the commit's blob ids back (exported-oids.ts). */
  readonly caller: GitImportCaller;
}

/**
 * How a run ended: the commit the branch has for the revision (pushed, or the head when nothing changed) and
 * where its pages and files are in the docs with the blob ids the commit gives them written, or why it failed.
 */
type Outcome =
  | { readonly revision: string; readonly commit?: string; readonly pushedMessage?: string; readonly paths: Readonly<Record<string, string>>; readonly oids: Readonly<Record<string, string>> }
  | { readonly error: string }
  | { readonly skipped: true };

/** The URL of a commit from a prefix (`repoCommitURL`). */
export const commitUrlOf = (prefix: string, oid: string) => `${prefix.replace(/\/+$/, '')}/${oid}`;

/** Whether an operation with `timestamp` is older than the latest one applied to the space. */
export const isOutdated = (sync: GitSyncRecord | undefined, timestamp: string | undefined) =>
  timestamp !== undefined && sync?.timestamp !== undefined && Date.parse(timestamp) < Date.parse(sync.timestamp);

/** Exports the space: the commit, or why not. */
async function exportOnce(ports: Ports, run: ExportRun): Promise<Outcome> {
  const state = await ports.store.read(async (tx) => {
    const space = (await tx.get(TABLES.spaces, run.spaceId)) as SpaceRecord | undefined;
    const sync = (await tx.get(TABLES.gitSyncs, run.spaceId)) as GitSyncRecord | undefined;
    if (!space || space.deletedAt !== undefined) return undefined;
    const revision = (await tx.get(TABLES.revisions, space.revision)) as RevisionRecord;
    return { sync, revision, content: await readSyncedContent({ tx, blobs: ports.blobs }, revision) };
  });
  if (!state) return { error: `space ${run.spaceId} no longer exists` };
  const { sync, revision, content } = state;
  if (isOutdated(sync, run.timestamp)) return { skipped: true };
  const branch = run.request.ref.slice('refs/heads/'.length);
  // Only a head of the repository and branch the sync's base came from can have commits the space has not
  // imported (another one's head is simply where the export goes on top of). The base's own record says so:
  // `url` and `ref` name the last operation's, which a failed one may have changed.
  const linked = sync?.commit !== undefined && isSyncedWith(sync, run.remote.url, run.request.ref);
  // Where the last sync found the pages and files: the export writes them there again (a repository laid out
  // its own way is not moved), and records where it wrote every one.
  let paths = sync?.paths ?? {};
  // Where a path of the docs is in the repository, once the head's configuration is read.
  let located = (path: string) => path;
  const edit = async (head: FetchedTree | undefined): Promise<GitTreeEdit> => {
    const docs = headDocs(head, run.projectDirectory);
    const message = withPlatformTrailer(run.commitMessage, run.spaceId, revision.id);
    const commit = { message, author: run.author, committer: PLATFORM_COMMITTER, time: ports.clock.now().getTime() };
    if (head !== undefined && linked && head.commit.oid !== sync.commit && !isPlatformCommitOf(head.commit.message, run.spaceId, revision.id) && !run.force) {
      throw badRequest(`${run.request.ref} has commits the space has not imported (its head is ${head.commit.oid.slice(0, 12)}, the last sync ${sync.commit!.slice(0, 12)}): import them first, or export with force to write the space over them`);
    }
    // The head is the space's last sync and the space has not changed since: nothing to write.
    if (head !== undefined && linked && head.commit.oid === sync.commit && sync.revision === revision.id) return { ...commit, write: new Map(), remove: new Set() };
    const written = await ports.workers.run(writeRepositoryJob, { content, config: docs.config, recorded: paths }, ports.closing);
    paths = written.paths;
    located = (path) => joinPath(docs.project, joinPath(docs.config.root, path));
    return { ...commit, write: new Map(written.files.map(([path, bytes]) => [joinPath(docs.project, path), bytes])), remove: docs.owned };
  };
  const outcome: GitCommitOutcome = await ports.gitTransport.commitTree(run.remote, branch, projectFolder(run.projectDirectory), GIT_IMPORT_LIMITS, edit);
  const oids: Record<string, string> = {};
  for (const [id, path] of Object.entries(paths)) {
    const oid = outcome.blobs.get(located(path));
    if (oid !== undefined) oids[id] = oid;
  }
  if ('pushed' in outcome) return { revision: revision.id, commit: outcome.pushed.oid, pushedMessage: outcome.pushed.message, paths, oids };
  return { revision: revision.id, ...(outcome.unchanged && { commit: outcome.unchanged.oid }), paths, oids };
}

/**
 * Records a run's outcome (recordOperation: the state while the operation is the last one started); a
 * commit, unless standalone, becomes the sync's base, and a pushed one the revision's `git`. When the space
 * is still at the exported revision and the commit gives its pages or files other blob ids, the space moves
 * to a revision that has them (exported-oids.ts), which is then the base, as an import's would be.
 */
async function recordExport(ports: Ports, run: ExportRun, outcome: Outcome): Promise<void> {
  const now = ports.clock.now().toISOString();
  const failed = 'error' in outcome;
  const operation = { state: failed ? ('failure' as const) : ('success' as const), direction: 'export' as const, startedAt: run.startedAt, endedAt: now, ...(failed && { error: outcome.error }) };
  const syncs = 'revision' in outcome && outcome.commit !== undefined && !run.standalone;
  await writeAs(ports, run.caller, async (ctx) => {
    const { tx } = ctx;
    const applied = !failed && !('skipped' in outcome) && run.timestamp !== undefined ? { timestamp: run.timestamp } : {};
    if (!('revision' in outcome) || outcome.commit === undefined) return recordOperation(tx, run.spaceId, run.request, operation, { operationId: run.operationId, now, synced: applied });
    const revision = (await tx.get(TABLES.revisions, outcome.revision)) as RevisionRecord | undefined;
    const pushed = outcome.pushedMessage === undefined ? undefined : { oid: outcome.commit, message: outcome.pushedMessage, ref: run.request.ref, createdByService: true, ...(run.commitUrl !== undefined && { url: commitUrlOf(run.commitUrl, outcome.commit) }) };
    if (revision && pushed) await tx.put(TABLES.revisions, { ...revision, git: pushed });
    let base: (SyncedState & { exported?: true }) | undefined = syncs ? { commit: outcome.commit, revision: outcome.revision, syncedUrl: run.remote.url, syncedRef: run.request.ref, paths: outcome.paths, exported: true } : undefined;
    // Imports, merges and this write into one space queue instead of failing each other.
    if (base) await tx.lock(spaceScope(run.spaceId), 'exclusive');
    const space = base && ((await tx.get(TABLES.spaces, run.spaceId)) as SpaceRecord | undefined);
    if (base && revision && space?.revision === revision.id) {
      const git = pushed ?? revision.git;
      const withOids = git === undefined ? undefined : await commitExportedOids(ctx, revision.id, outcome.oids, git);
      if (withOids) {
        await tx.put(TABLES.spaces, { ...space, revision: withOids.id, updatedAt: now });
        base = { ...base, revision: withOids.id };
      }
    }
    await recordOperation(tx, run.spaceId, run.request, operation, { operationId: run.operationId, now, synced: { ...base, ...applied } });
  });
}

/** Runs an export in the space's Git turn and records how it went; a failure names no credentials. */
export async function runExport(ports: Ports, run: ExportRun): Promise<void> {
  await inGitTurn(ports, run.spaceId, run.operationId, async () => {
    let outcome: Outcome;
    try {
      outcome = await exportOnce(ports, run);
    } catch (error) {
      if (!(error instanceof GitTransportError) && !(error instanceof ApiError && error.status < 500)) {
        await recordExport(ports, run, { error: 'the export failed on the platform; see its log' });
        throw error;
      }
      outcome = { error: scrubCredentials(error.message, run.remote) };
    }
    if (ports.closing.aborted) return;
    await recordExport(ports, run, outcome);
  });
}
