import type { WriteContext } from '../context.js';
import { TABLES, type ChangeRequestRecord } from '../records.js';
import { runExport, type ExportRun } from './export-run.js';
import type { GitSyncRecord } from './git-sync-record.js';
import { recordOperation } from './git-sync-state.js';
import { remoteWith, sealCredentials } from './sealed-credentials.js';
import { remoteOf } from './transport.js';
import { projectFolder } from './export-edit.js';

/**
 * Keeping a space in step with its repository: once an export has synced a space (the repository then
 * holds the platform's layout), every merge into it queues an export of its own, to the repository, branch and
 * project directory of the last sync, authored by whoever merged. Exports run one at a time per space
 * (git-turn.ts) and each writes the space as it is when it runs, so the branch ends at the last merge; one
 * that finds nothing new makes no commit. The credentials of the last request are kept sealed
 * (sealed-credentials.ts) for these exports; without them the repository is reached without credentials.
 * A space only ever imported is not exported after merges: its repository is the source, laid out its
 * own way, and writing the platform's layout into it unasked would move its files.
 */

/** What a request names of the repository, besides the URL recordOperation keeps. */
export interface SyncedRequest {
  /** The URL as the request gave it, credentials included. */
  readonly url: string;
  readonly repoProjectDirectory?: string;
  readonly repoCommitURL?: string;
}

/**
 * Keeps what the exports after merges need of a request that synced the space: its project directory,
 * its commit URL prefix, and its credentials (sealed; forgotten when it has none).
 */
export async function keepRequest(ctx: WriteContext, spaceId: string, request: SyncedRequest): Promise<void> {
  const sync = (await ctx.tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  if (!sync) return;
  const { credentials: _credentials, projectDirectory: _directory, commitUrl: _commitUrl, ...rest } = sync;
  const credentials = await sealCredentials(ctx.secrets, spaceId, remoteOf(request.url));
  const projectDirectory = projectFolder(request.repoProjectDirectory ?? '');
  const kept: GitSyncRecord = {
    ...rest,
    ...(projectDirectory !== '' && { projectDirectory }),
    ...(request.repoCommitURL !== undefined && { commitUrl: request.repoCommitURL }),
    ...(credentials && { credentials }),
  };
  await ctx.tx.put(TABLES.gitSyncs, kept);
}

/** The message of the commit that exports a merge. */
const messageOf = (changeRequest: ChangeRequestRecord) => `Merge change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`;

/** Queues the export of a merge into a space an export synced (nothing for others). Called in the merge's transaction. */
export async function exportAfterMerge(ctx: WriteContext, spaceId: string, changeRequest: ChangeRequestRecord): Promise<void> {
  const sync = (await ctx.tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  if (sync?.commit === undefined || !sync.exported) return;
  const user = await ctx.actor.user();
  const operationId = ctx.ids.id();
  const request = { url: sync.url, ref: sync.ref, ...(sync.treeUrl !== undefined && { repoTreeURL: sync.treeUrl }) };
  await recordOperation(ctx.tx, spaceId, request, { state: 'running', direction: 'export', startedAt: ctx.now }, { operationId, now: ctx.now });
  const run: ExportRun = {
    spaceId,
    operationId,
    startedAt: ctx.now,
    remote: await remoteWith(ctx.secrets, spaceId, sync.url, sync.credentials),
    request,
    commitMessage: messageOf(changeRequest),
    projectDirectory: sync.projectDirectory ?? '',
    ...(sync.commitUrl !== undefined && { commitUrl: sync.commitUrl }),
    force: false,
    standalone: false,
    author: { name: user.displayName, email: user.email },
  };
  ctx.defer((ports) => runExport(ports, run));
}
