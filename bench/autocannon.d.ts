/**
 * The part of autocannon 8's API the bench uses. autocannon ships no types and @types/autocannon is not
 * a dependency, so this declaration keeps `npm run typecheck` strict without adding one.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    /**
     * One request of a run; `setupRequest` rewrites it before each send and `onResponse` hears its
     * answer. Both get the connection's context object of that request.
     */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    }

    /** The options of a run. */
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      pipelining?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
    }

    /** A summary of a histogram, as autocannon reports it. */
    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    /** The result of a run. */
    interface Result {
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds, recorded as whole numbers. */
      latency: Stats;
      requests: Stats & { sent: number };
      throughput: Stats;
    }

    /** A running load test: an event emitter (`response`, `done`) that is also a promise of the result. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
