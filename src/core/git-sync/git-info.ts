import { notFound } from '../errors.js';
import { readOperation } from '../operation.js';
import { TABLES } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from '../spaces/access.js';
import type { GitSyncRecord } from './git-sync-record.js';
import { GitSyncStateSchema } from './schemas.js';
import { gitSyncFieldsOf } from './space-git-sync.js';

/**
 * A space's Git Sync state (GET /v1/spaces/{spaceId}/git/info): the repository, its provider and the last
 * operation, read from the store so that every process answers alike; 404 before the first operation.
 * An operation still `running` past the operation timeout is answered as `timeout`: its process died.
 */

/** How long an operation may run before it is answered as timed out, in milliseconds. */
export const GIT_OPERATION_TIMEOUT_MS = 10 * 60 * 1000;

/** Answers a space's Git Sync state. Needs the view level. */
export const getSpaceGitInfo = readOperation({
  name: 'getSpaceGitInfo',
  summary: 'Get the Git Sync state of a space',
  params: { spaceId: Id },
  response: GitSyncStateSchema,
  async run(ctx, { spaceId }) {
    const { space } = await requireSpace(ctx, spaceId, 'view', 'read its Git Sync state');
    const sync = (await ctx.tx.get(TABLES.gitSyncs, space.id)) as GitSyncRecord | undefined;
    if (!sync) throw notFound(`Space ${spaceId} has no Git Sync: import or export a repository first`);
    const { operation } = sync;
    const timedOut = operation.state === 'running' && Date.parse(ctx.now) - Date.parse(operation.startedAt) > GIT_OPERATION_TIMEOUT_MS;
    return {
      ...gitSyncFieldsOf(sync),
      operation: { ...operation, ...(timedOut && { state: 'timeout' as const }) },
      operationTimeout: GIT_OPERATION_TIMEOUT_MS,
    };
  },
});
