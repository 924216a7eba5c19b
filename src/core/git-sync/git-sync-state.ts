import type { WriteTransaction } from '../../store/types.js';
import { TABLES } from '../records.js';
import { providerOf, repoNameOf, type GitSyncOperationRecord, type GitSyncRecord } from './git-sync-record.js';
import { remoteOf } from './transport.js';

/**
 * Writing a space's Git Sync state (table `gitSyncs`): the repository an operation names (its URL without
 * credentials), the operation's state, and after a successful sync what the next one starts from.
 */

/** The fields of a request that name the repository. */
export interface RepositoryRequest {
  readonly url: string;
  readonly ref: string;
  readonly repoTreeURL?: string;
}

/** What a successful sync leaves for the next one. */
export type SyncedState = Pick<GitSyncRecord, 'commit' | 'revision' | 'syncedUrl' | 'syncedRef' | 'paths' | 'timestamp' | 'redirects'>;

/** How an operation is recorded. */
export interface RecordOptions {
  /** The operation's id: its start records it, its end writes its state only if it is still the last one started. */
  readonly operationId: string;
  readonly now: string;
  /** Set on a successful sync of the space's content. */
  readonly synced?: SyncedState;
}

/**
 * Records an operation of a space's Git Sync: its start (`running`) or its end. An end whose operation is
 * no longer the last one started keeps the later one's state, and still records what it synced.
 */
export async function recordOperation(tx: WriteTransaction, spaceId: string, request: RepositoryRequest, operation: GitSyncOperationRecord, options: RecordOptions): Promise<void> {
  const previous = (await tx.get(TABLES.gitSyncs, spaceId)) as GitSyncRecord | undefined;
  const current = previous?.operationId === undefined || previous.operationId === options.operationId || operation.state === 'running';
  const url = remoteOf(request.url).url;
  const record: GitSyncRecord = {
    ...previous,
    id: spaceId,
    url,
    repoName: repoNameOf(url),
    provider: providerOf(url),
    ref: request.ref,
    ...(request.repoTreeURL !== undefined && { treeUrl: request.repoTreeURL }),
    operation: current || !previous ? operation : previous.operation,
    operationId: current || !previous?.operationId ? options.operationId : previous.operationId,
    ...options.synced,
    updatedAt: options.now,
  };
  await tx.put(TABLES.gitSyncs, record);
}
