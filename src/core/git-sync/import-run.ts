import { ApiError, FailAfterCommit } from '../errors.js';
import type { Ports } from '../context.js';
import type { GitImportCaller, GitImportInput } from './queued-work.js';
import { recordOperation } from './git-sync-state.js';
import { readRemoteRepository, type FetchedRepository } from './fetch-repository.js';
import { applyImport } from './apply-import.js';
import { inGitTurn } from './git-turn.js';
import { GitTransportError, remoteOf, scrubCredentials } from './transport.js';

/**
 * The queued part of a Git import, after the request's response: the repository is fetched and read
 * outside any transaction (fetch-repository.ts), then one write transaction makes the space's new revision
 * and records the outcome (apply-import.ts). A failure the caller can act on (unreachable, over a limit,
 * malformed, a conflict, the permission gone meanwhile) is recorded as the operation's `error`, credentials
 * never named; anything else is recorded as an internal failure and goes to the background's error log.
 * A platform that closes meanwhile records nothing: the operation reads as `timeout` once it is old enough.
 */

/** The message of a failure the caller can act on, credentials blanked out; undefined for a bug. */
function reasonOf(error: unknown, input: GitImportInput): string | undefined {
  const remote = remoteOf(input.url);
  const failure = error instanceof FailAfterCommit ? error.error : error;
  if (failure instanceof GitTransportError || failure instanceof ApiError) return scrubCredentials(failure.message, remote);
  return undefined;
}

/** Runs a queued import to its end, recording the outcome in the space's Git Sync state. */
export async function runGitImport(ports: Ports, caller: GitImportCaller, input: GitImportInput): Promise<void> {
  try {
    // One Git operation at a time per space (git-turn.ts): an export never reads the space mid-import.
    await inGitTurn(ports, input.spaceId, input.operationId, async () => {
      const repository: FetchedRepository = await readRemoteRepository(ports, input);
      await applyImport(ports, caller, input, repository);
    });
  } catch (error) {
    if (ports.closing.aborted) return;
    const reason = reasonOf(error, input);
    const message = reason ?? 'the import failed on the server; its log says why';
    const operation = { state: 'failure' as const, direction: 'import' as const, startedAt: input.startedAt, endedAt: ports.clock.now().toISOString(), error: message };
    await ports.store.write((tx) => recordOperation(tx, input.spaceId, input, operation, { operationId: input.operationId, now: operation.endedAt }));
    if (reason === undefined) throw error;
  }
}
