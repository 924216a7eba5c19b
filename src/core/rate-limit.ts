import { tokenHash } from './auth.js';
import type { Actor } from './context.js';

/**
 * Rate limits: each client (a valid token, or an address for requests without one) has a budget of request units
 * a minute, counted in fixed one-minute windows. Counting is a port of the platform (`RateLimiter`): in
 * memory by default (one process), or in PostgreSQL (src/store/postgres/rate-limiter.ts), where every
 * process on one database shares the counts.
 */

/** Counts request units per key and window. */
export interface RateLimiter {
  /**
   * Adds `cost` to the units `key` has spent in the window that starts at `windowStart` (Unix milliseconds,
   * a multiple of the window's length) and resolves to the units spent in it so far, this call's included.
   * A call's count holds its own addition and every one this process made before. A limiter shared by
   * processes adds the others' as it learns them: PostgreSQL's within about a tenth of a second, so a client
   * spread over N processes may go over its budget by what it sends in that time.
   * Counts of earlier windows are forgotten. A count this process already holds comes back as a number, at
   * once: most requests do not wait a turn of the event loop for their budget; one it must ask for, as a promise.
   */
  take(key: string, cost: number, windowStart: number): number | Promise<number>;
}

/** The length of a window: budgets are per minute. */
export const RATE_WINDOW_MS = 60_000;

/** What one request costs, in units of the budget. */
export const RATE_COSTS = {
  /** A read (GET). */
  read: 1,
  /** A write: anything that changes what is stored. */
  write: 5,
  /** A heavy job: an import, a PDF, OpenAPI processing (CPU and seconds of a worker thread). */
  heavy: 20,
} as const;

/** The outcome of a request's check, sent back as X-RateLimit-* headers (and Retry-After when refused). */
export interface RateDecision {
  readonly allowed: boolean;
  /** The budget a minute. */
  readonly limit: number;
  /** The units left in this window. */
  readonly remaining: number;
  /** When the window ends, in Unix seconds. */
  readonly reset: number;
  /** Seconds until the budget is back (the end of the window); 0 when allowed. */
  readonly retryAfter: number;
}

/**
 * Spends `cost` units of `key`'s budget of `limit` a minute at `now`: allowed while the window's units,
 * this request's included, stay within the limit. A refused request counts too, so a client that keeps
 * sending stays refused until the window ends.
 */
export function spendBudget(limiter: RateLimiter, key: string, cost: number, limit: number, now: number): RateDecision | Promise<RateDecision> {
  const windowStart = now - (now % RATE_WINDOW_MS);
  const spent = limiter.take(key, cost, windowStart);
  return typeof spent === 'number' ? decide(spent, limit, windowStart, now) : spent.then((units) => decide(units, limit, windowStart, now));
}

/** The decision for `spent` units of a budget of `limit`, in the window that starts at `windowStart`. */
function decide(spent: number, limit: number, windowStart: number, now: number): RateDecision {
  const end = windowStart + RATE_WINDOW_MS;
  const allowed = spent <= limit;
  return {
    allowed,
    limit,
    remaining: Math.max(0, limit - spent),
    reset: Math.ceil(end / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((end - now) / 1000)),
  };
}

/** The most keys the memory limiter holds in one window; past it, new keys share one count (OVERFLOW_KEY). */
const MAX_MEMORY_KEYS = 100_000;
const OVERFLOW_KEY = '\u0000overflow';

/**
 * A limiter in this process's memory. Only the current window's counts are kept: they are dropped at once
 * when a new window begins, so memory is bounded by the clients of one minute (at most MAX_MEMORY_KEYS).
 */
export function createMemoryRateLimiter(): RateLimiter {
  let window = -1;
  let counts = new Map<string, number>();
  return {
    take(key, cost, windowStart) {
      if (windowStart !== window) {
        if (windowStart < window) return cost; // a late call from an earlier window
        window = windowStart;
        counts = new Map();
      }
      // A flood of made-up keys (tokens) shares one budget rather than growing the map or resetting it.
      const counted = counts.size >= MAX_MEMORY_KEYS && !counts.has(key) ? OVERFLOW_KEY : key;
      const spent = (counts.get(counted) ?? 0) + cost;
      counts.set(counted, spent);
      return spent;
    },
  };
}

/** A request as its budget sees it. */
export interface Charge {
  /** The bearer token it came with, valid or not; undefined without one. */
  readonly token: string | undefined;
  /**
   * Its client's address, asked only when the request is charged to it (working it out from X-Forwarded-For
   * costs); undefined when the adapter knows none (then all such requests share one budget).
   */
  readonly clientAddress: () => string | undefined;
  /** What it costs (RATE_COSTS). */
  readonly cost: number;
  /** The budget a minute. */
  readonly limit: number;
  /** Unix milliseconds. */
  readonly now: number;
}

/**
 * Charges a request to its client's budget. A valid token's budget is counted under the token's hash (never
 * the token); any other request's under its client address: a made-up, malformed or revoked token is not a
 * key of the client's choosing, so sending a new one each time escapes nothing. A token this process found
 * valid before is charged at once, without a read (the hot path); another is authenticated first. A refusal
 * is said only to a token still valid: one deleted since (in this process or another) is charged to its
 * address instead, so that it answers 401, as it would within its budget, not 429.
 */
export function chargeRequest(limiter: RateLimiter, authenticate: (token: string) => Promise<Actor | null>, charge: Charge): RateDecision | Promise<RateDecision> {
  const { token, cost, limit, now } = charge;
  const byAddress = () => spendBudget(limiter, `address:${charge.clientAddress() ?? 'unknown'}`, cost, limit, now);
  if (token === undefined) return byAddress();
  const known = tokenHash(token);
  if (known === undefined) return authenticate(token).then((actor) => (actor?.token ? spendBudget(limiter, `token:${actor.token.id}`, cost, limit, now) : byAddress()));
  const stillValid = (decision: RateDecision) => (decision.allowed ? decision : authenticate(token).then((actor) => (actor ? decision : byAddress())));
  const decision = spendBudget(limiter, `token:${known}`, cost, limit, now);
  return decision instanceof Promise ? decision.then(stillValid) : stillValid(decision);
}
