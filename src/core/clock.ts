/** The source of the current time; injected so that tests can move it (a deleted space expires after 7 days). */
export interface Clock {
  /** The current time. */
  now(): Date;
}

/** The real clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests. */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z') {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    /** Moves the clock forward by a number of milliseconds. */
    advance(ms: number) {
      current += ms;
    },
    /** Sets the clock to a point in time. */
    set(at: Date | string) {
      current = new Date(at).getTime();
    },
  };
}
