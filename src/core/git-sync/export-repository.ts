import { writeOperation } from '../operation.js';
import { TABLES } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from '../spaces/access.js';
import { keepRequest } from './auto-export.js';
import { projectFolder } from './export-edit.js';
import { isOutdated, runExport, type ExportRun } from './export-run.js';
import type { GitSyncRecord } from './git-sync-record.js';
import { recordOperation } from './git-sync-state.js';
import { ExportToGitRepositoryBody } from './schemas.js';
import { remoteOf } from './transport.js';

/**
 * Exporting a space to a Git repository (POST /v1/spaces/{spaceId}/git/export, 204 once queued): the
 * operation checks who asks, records the space's Git Sync operation as `running`, and hands the export to
 * the background (export-run.ts), which commits the space's current revision on the branch and records the
 * outcome in git/info. An export older (`timestamp`) than the latest operation applied is skipped.
 * Credentials in the URL stay in memory for the run: no record, message or state names them.
 */

const DOING = 'export it to a Git repository';

/** Queues an export of a space to a Git repository; 204. Needs `triggerGitSync`. */
export const exportToGitRepository = writeOperation({
  name: 'exportToGitRepository',
  heavy: true,
  summary: 'Export a space to a Git repository',
  params: { spaceId: Id },
  body: ExportToGitRepositoryBody,
  response: null,
  async run(ctx, input) {
    const { space } = await requireSpace(ctx, input.spaceId, 'triggerGitSync', DOING);
    const projectDirectory = projectFolder(input.repoProjectDirectory ?? '');
    const previous = (await ctx.tx.get(TABLES.gitSyncs, space.id)) as GitSyncRecord | undefined;
    if (isOutdated(previous, input.timestamp)) return;
    const user = await ctx.actor.user();
    const operationId = ctx.ids.id();
    await recordOperation(ctx.tx, space.id, input, { state: 'running', direction: 'export', startedAt: ctx.now }, { operationId, now: ctx.now });
    const remote = remoteOf(input.url);
    if (!input.standalone) await keepRequest(ctx, space.id, input);
    const run: ExportRun = {
      spaceId: space.id,
      operationId,
      startedAt: ctx.now,
      remote,
      request: { url: input.url, ref: input.ref, ...(input.repoTreeURL !== undefined && { repoTreeURL: input.repoTreeURL }) },
      commitMessage: input.commitMessage,
      projectDirectory,
      ...(input.repoCommitURL !== undefined && { commitUrl: input.repoCommitURL }),
      force: input.force ?? false,
      standalone: input.standalone ?? false,
      ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
      author: { name: user.displayName, email: user.email },
    };
    ctx.defer((ports) => runExport(ports, run));
  },
});
