/**
 * How many runs a property gets. Each property is written with its deep count, the runs it deserves before a
 * release; `npm test` runs a fifth of them (at least 5), so that the suite stays within minutes, and
 * DOCS_PLATFORM_DEEP=1 runs them all (`npm run test:slow`, and so CI, does). fast-check draws a new seed on
 * every run, so the quick runs still explore new cases each time.
 */
export const DEEP = process.env.DOCS_PLATFORM_DEEP === '1';

/** The share of the deep runs a quick run makes. */
const QUICK_SHARE = 5;
/** The fewest runs of a quick run. */
const QUICK_MIN = 5;

/** The runs of a property whose deep count is `deep`: all of them under DOCS_PLATFORM_DEEP=1, else a fifth. */
export function runs(deep: number): number {
  return DEEP ? deep : Math.min(deep, Math.max(QUICK_MIN, Math.ceil(deep / QUICK_SHARE)));
}
