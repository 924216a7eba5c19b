import type { BackgroundTask, Ports } from './context.js';

/** Runs the tasks operations defer (`ctx.defer`) and keeps track of the ones still running. */
export interface Background {
  /** Starts a task now, without waiting for it; ignored once the platform is closing. */
  start(task: BackgroundTask): void;
  /** Resolves once every task started so far, and every task those started, has finished. */
  settle(): Promise<void>;
  /** Signals `ports.closing` so that running tasks stop early, then waits for them. */
  close(): Promise<void>;
}

/**
 * Creates the runner of background tasks. A task records its own outcome in the store; an error that
 * escapes one (a store write that failed, the store closing under it) goes to `onError` and never becomes
 * an unhandled rejection: the state it leaves behind is recovered by the next reader (see each area).
 */
export function createBackground(ports: Omit<Ports, 'closing'>, onError: (error: unknown) => void): Background {
  const controller = new AbortController();
  const all: Ports = { ...ports, closing: controller.signal };
  const running = new Set<Promise<void>>();
  return {
    start(task) {
      if (controller.signal.aborted) return;
      const promise: Promise<void> = Promise.resolve()
        .then(() => task(all))
        .catch((error) => {
          if (!controller.signal.aborted) onError(error);
        })
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    async settle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async close() {
      controller.abort();
      await this.settle();
    },
  };
}
