import type { WriteContext } from '../context.js';
import { writeOperation } from '../operation.js';
import { Id } from '../schemas.js';
import { IMPORT_DOING } from './apply-import.js';
import { runGitImport } from './import-run.js';
import { callerOf, type GitImportInput } from './queued-work.js';
import { ImportGitRepositoryBody } from './schemas.js';
import { startGitOperation } from './start-operation.js';

/**
 * Importing a Git repository into a space (POST /v1/spaces/{spaceId}/git/import): 204 once queued, as the
 * public API has it. The request checks who asks and records the operation as `running` in the space's Git
 * Sync state, which every process reads (git/info); the work runs after the response (import-run.ts),
 * and its outcome, success or the failure with its reason, becomes that state. Credentials in the URL
 * travel with the queued work in memory only: no record, message or state names them.
 */

/** Queues an import of a Git repository into a space; the outcome in git/info. Needs `triggerGitSync`. */
export const importGitRepository = writeOperation({
  name: 'importGitRepository',
  heavy: true,
  summary: 'Import a Git repository into a space',
  params: { spaceId: Id },
  body: ImportGitRepositoryBody,
  response: null,
  async run(ctx: WriteContext, input) {
    // Never skipped here: an import older than the last sync is recorded as one that changed nothing (apply-import.ts).
    const { space, operationId, startedAt } = (await startGitOperation(ctx, input, 'import', IMPORT_DOING))!;
    const queued: GitImportInput = { ...input, spaceId: space.id, operationId, startedAt };
    const caller = callerOf(ctx);
    ctx.defer((ports) => runGitImport(ports, caller, queued));
  },
});
