import { RATE_COSTS, type RateDecision, type RateLimiter } from '../core/rate-limit.js';
import type { Route } from '../core/operation.js';

/** Rate limits of the pipeline (docs/operating.md, Rate limits). */
export interface RateLimitOptions {
  /** Units a minute for each valid token, and for each client address of requests without one; 0 turns limits off. */
  perMinute: number;
  /** Where the counts are kept; default the platform's (platform.rateLimiter: in memory, or PostgreSQL's). */
  limiter?: RateLimiter;
}

/** The units a request costs: a heavy job, a write, or a read (also a path that matches no route). */
export function requestCost(route: Route | undefined): number {
  if (!route) return RATE_COSTS.read;
  if (route.operation.heavy) return RATE_COSTS.heavy;
  return route.operation.access === 'write' ? RATE_COSTS.write : RATE_COSTS.read;
}

/** Sets the X-RateLimit-* headers of an answer (and Retry-After for a refusal), as the public API sends them. */
export function setRateLimitHeaders(headers: Record<string, string>, decision: RateDecision): void {
  // Set on the answer's own headers: no object of them to make and copy in, on every answer.
  headers['x-ratelimit-limit'] = String(decision.limit);
  headers['x-ratelimit-remaining'] = String(decision.remaining);
  headers['x-ratelimit-reset'] = String(decision.reset);
  if (!decision.allowed) headers['retry-after'] = String(decision.retryAfter);
}
