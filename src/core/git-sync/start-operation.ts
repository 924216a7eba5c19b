import type { WriteContext } from '../context.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { requireSpace } from '../spaces/access.js';
import { projectFolder } from './export-edit.js';
import type { GitSyncRecord } from './git-sync-record.js';
import { recordOperation, type RepositoryRequest } from './git-sync-state.js';
import { sealCredentials } from './sealed-credentials.js';
import { remoteOf } from './transport.js';

/**
 * How every Git Sync operation starts, in the transaction that queues it (a request's, or a merge's for the
 * export after it): the operation recorded as `running` under a new id in the space's Git Sync state, so
 * that git/info shows it from any process and only its own end replaces that state. A request also checks
 * that its caller may trigger a sync and keeps what the exports after merges need of it.
 */

/** Records a Git operation of a space as running; its id. */
export async function recordRunning(ctx: WriteContext, spaceId: string, request: RepositoryRequest, direction: 'import' | 'export'): Promise<string> {
  const operationId = ctx.ids.id();
  await recordOperation(ctx.tx, spaceId, request, { state: 'running', direction, startedAt: ctx.now }, { operationId, now: ctx.now });
  return operationId;
}

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

/** An operation a request started: its space, its id in the space's Git Sync state, and when it started. */
export interface StartedOperation {
  readonly space: SpaceRecord;
  readonly operationId: string;
  readonly startedAt: string;
}

/** What a Git Sync request names: the space and the repository. */
export type GitSyncRequest = RepositoryRequest & SyncedRequest & { readonly spaceId: string };

/**
 * Starts the Git operation of a request: needs `triggerGitSync` on the space; undefined, recording nothing,
 * when `skip` says the space's last sync makes it pointless (an export older than it). Keeps the request
 * for the exports after merges unless `keep` is false (a standalone export does not sync the space).
 */
export async function startGitOperation(
  ctx: WriteContext,
  input: GitSyncRequest,
  direction: 'import' | 'export',
  doing: string,
  options: { readonly keep?: boolean; readonly skip?: (sync: GitSyncRecord | undefined) => boolean } = {},
): Promise<StartedOperation | undefined> {
  const { space } = await requireSpace(ctx, input.spaceId, 'triggerGitSync', doing, { purge: ctx.tx });
  const previous = (await ctx.tx.get(TABLES.gitSyncs, space.id)) as GitSyncRecord | undefined;
  if (options.skip?.(previous)) return undefined;
  const operationId = await recordRunning(ctx, space.id, input, direction);
  if (options.keep !== false) await keepRequest(ctx, space.id, input);
  return { space, operationId, startedAt: ctx.now };
}
