import type { Platform } from '../core/platform.js';

/** The paths of the probes: the process is alive; the server can take requests. */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** What `/readyz` answers from; serve() makes one and calls stop() as its graceful stop begins. */
export interface Health {
  /** Undefined when the server can take requests (the store is open and takes writes); else why not. */
  readiness(): Promise<string | undefined>;
  /** From now on not ready: a graceful stop has begun, so a load balancer sends no more requests. */
  stop(): void;
}

/** The health of a platform: ready while its store is (Store.ready) and until stop(). */
export function createHealth(platform: Pick<Platform, 'store'>): Health {
  let stopping = false;
  return {
    async readiness() {
      if (stopping) return 'The server is stopping';
      try {
        await platform.store.ready();
        return undefined;
      } catch (error) {
        return (error as Error)?.message ?? String(error);
      }
    },
    stop() {
      stopping = true;
    },
  };
}
