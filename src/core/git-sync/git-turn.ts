import type { Ports } from '../context.js';
import { releaseLease, takeLease } from '../leases.js';
import { GIT_OPERATION_TIMEOUT_MS } from './git-info.js';

/**
 * One Git operation at a time per space, whatever number of processes share the store: a run takes the
 * space's lease (leases.ts) for the operation timeout before it reaches the repository, and gives it up at
 * its end. A run that finds it taken waits, checking again after a growing delay (to a second), so that a
 * run that died only holds the space until its lease lapses.
 */

/** The lease of a space's Git operations. */
const leaseOf = (spaceId: string) => `git-sync:${spaceId}`;

/** Resolves after `ms`, or at once when the platform closes. */
function delay(ms: number, closing: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      closing.removeEventListener('abort', done);
      resolve();
    }
    closing.addEventListener('abort', done);
  });
}

/**
 * Runs `work` holding the space's Git lease as `holder`; false without running it when the platform closed
 * or the lease stayed taken for a whole operation timeout.
 */
export async function inGitTurn(ports: Ports, spaceId: string, holder: string, work: () => Promise<void>): Promise<boolean> {
  const started = ports.clock.now().getTime();
  for (let wait = 25; ; wait = Math.min(wait * 2, 1000)) {
    if (ports.closing.aborted) return false;
    if (await takeLease(ports.store, leaseOf(spaceId), holder, ports.clock.now(), GIT_OPERATION_TIMEOUT_MS)) break;
    if (ports.clock.now().getTime() - started > GIT_OPERATION_TIMEOUT_MS) return false;
    await delay(wait, ports.closing);
  }
  try {
    await work();
  } finally {
    await releaseLease(ports.store, leaseOf(spaceId), holder);
  }
  return true;
}
