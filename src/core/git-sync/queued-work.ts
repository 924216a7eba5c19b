import type { Caller, Ports, Urls, WriteContext } from '../context.js';
import { notFound } from '../errors.js';
import { TABLES, type UserRecord } from '../records.js';
import { RunContext, type ContextPorts } from '../run-context.js';
import type { WriteTransaction } from '../../store/types.js';

/**
 * The work a Git Sync request queues, and the context it runs in: the request's caller and ports, so that
 * the work's transaction checks permissions and makes ids, times and URLs as the request's would have.
 */

/** What the request queued: its validated body, the space, and its operation. */
export interface GitImportInput {
  readonly spaceId: string;
  readonly operationId: string;
  readonly startedAt: string;
  readonly url: string;
  readonly ref: string;
  readonly repoTreeURL?: string;
  readonly repoCommitURL?: string;
  readonly repoProjectDirectory?: string;
  readonly timestamp?: string;
  readonly force?: boolean;
  readonly standalone?: boolean;
}

/** Who asked, and the ports of the request's operation, which the work's transaction uses as the request would have. */
export interface GitImportCaller {
  readonly userId: string;
  readonly urls: Urls;
  readonly ports: ContextPorts;
}

/** The caller of an operation's context, for the work it queues. */
export function callerOf(ctx: WriteContext): GitImportCaller {
  const { actor, urls, clock, ids, secrets, fetch, fetchTimeoutMs, blobs, derived, workers } = ctx;
  return { userId: actor.userId, urls, ports: { clock, ids, secrets, fetch, fetchTimeoutMs, blobs, derived, workers } };
}

/** The caller of a queued operation: its user read in the transaction that needs it. */
function callerIn(tx: WriteTransaction, userId: string): Caller {
  return {
    userId,
    async user() {
      const user = (await tx.get(TABLES.users, userId)) as UserRecord | undefined;
      if (!user) throw notFound(`No user ${userId}`);
      return user;
    },
  };
}

/** Runs `fn` in a write transaction with the context an operation of the caller would have. */
export function writeAs<T>(ports: Ports, caller: GitImportCaller, fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
  return ports.store.write((tx) => fn(new RunContext(tx, callerIn(tx, caller.userId), caller.urls, caller.ports, [], ports.clock.now()) as unknown as WriteContext));
}

