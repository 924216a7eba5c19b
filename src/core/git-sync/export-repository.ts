import { writeOperation } from '../operation.js';
import { Id } from '../schemas.js';
import { projectFolder } from './export-edit.js';
import { isOutdated, runExport, type ExportRun } from './export-run.js';
import { callerOf } from './queued-work.js';
import { ExportToGitRepositoryBody } from './schemas.js';
import { startGitOperation } from './start-operation.js';
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
    const projectDirectory = projectFolder(input.repoProjectDirectory ?? '');
    const started = await startGitOperation(ctx, input, 'export', DOING, { keep: !input.standalone, skip: (sync) => isOutdated(sync, input.timestamp) });
    if (!started) return;
    const user = await ctx.actor.user();
    const remote = remoteOf(input.url);
    const run: ExportRun = {
      spaceId: started.space.id,
      operationId: started.operationId,
      startedAt: started.startedAt,
      remote,
      request: { url: input.url, ref: input.ref, ...(input.repoTreeURL !== undefined && { repoTreeURL: input.repoTreeURL }) },
      commitMessage: input.commitMessage,
      projectDirectory,
      ...(input.repoCommitURL !== undefined && { commitUrl: input.repoCommitURL }),
      force: input.force ?? false,
      standalone: input.standalone ?? false,
      ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
      author: { name: user.displayName, email: user.email },
      caller: callerOf(ctx),
    };
    ctx.defer((ports) => runExport(ports, run));
  },
});
