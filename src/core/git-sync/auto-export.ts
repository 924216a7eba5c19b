import type { WriteContext } from '../context.js';
import { TABLES, type ChangeRequestRecord } from '../records.js';
import { runExport, type ExportRun } from './export-run.js';
import type { GitSyncRecord } from './git-sync-record.js';
import { callerOf } from './queued-work.js';
import { remoteWith } from './sealed-credentials.js';
import { recordRunning } from './start-operation.js';

/**
 * Keeping a space in step with its repository: once an export has synced a space (the repository then
 * holds the platform's layout), every merge into it queues an export of its own, to the repository, branch and
 * project directory of the last sync, authored by whoever merged. Exports run one at a time per space
 * (git-turn.ts) and each writes the space as it is when it runs, so the branch ends at the last merge; one
 * that finds nothing new makes no commit. The credentials of the last request are kept sealed
 * (start-operation.ts: keepRequest) for these exports; without them the repository is reached without
 * credentials. A space only ever imported is not exported after merges: its repository is the source,
 * and an export unasked would rewrite its summary and pages the platform's way.
 */

/** The message of the commit that exports a merge. */
const messageOf = (changeRequest: ChangeRequestRecord) => `Merge change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`;

/** Queues the export of a merge into a space an export synced (nothing for others). Called in the merge's transaction. */
export async function exportAfterMerge(ctx: WriteContext, spaceId: string, changeRequest: ChangeRequestRecord): Promise<void> {
  const sync = (await ctx.tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  if (sync?.commit === undefined || !sync.exported) return;
  const user = await ctx.actor.user();
  const request = { url: sync.url, ref: sync.ref, ...(sync.treeUrl !== undefined && { repoTreeURL: sync.treeUrl }) };
  const operationId = await recordRunning(ctx, spaceId, request, 'export');
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
    caller: callerOf(ctx),
  };
  ctx.defer((ports) => runExport(ports, run));
}
