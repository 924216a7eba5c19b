import type { Check } from './targets.js';

/** What a row of the store case measured, as its targets see it. */
export interface StoreFigures {
  id: string;
  kind: 'store-writes' | 'store-compaction' | 'store-open';
  /** Records in the store. */
  records: number;
  /**
   * Durable writes per second, and the p99 of the writes that began during and outside a compaction
   * (ms); null when not measured, or when fewer than MIN_CLASS_WRITES writes make that p99.
   */
  writesPerSecond: number | null;
  p99DuringCompactionMs: number | null;
  p99OutsideCompactionMs: number | null;
  openMs: number | null;
  valid: boolean;
}

/** The targets of the store case (issue #3), for this machine. */
export const STORE_TARGETS = {
  /** Durable writes/s, 50 concurrent writers, at the small store (1k records): at least this many. */
  writesPerSecond: 2000,
  /** The rate at the large store (100k records): at most this many times slower than at the small one. */
  writesSlowdown: 1.5,
  /** The p99 of writes begun during a compaction: at most this multiple of the p99 of the others. */
  compactionP99Growth: 3,
  /** Opening the large store (snapshot read and parsed, journal replayed): less than this many ms. */
  openMs: 2000,
};

/** The fewest writes whose p99 is compared: of fewer, the p99 is one or two outliers. */
export const MIN_CLASS_WRITES = 100;

/** Checks every target the store rows have; `small` and `large` are their record counts. */
export function checkStoreTargets(rows: readonly StoreFigures[], small: number, large: number): Check[] {
  const checks: Check[] = [];
  const check = (figures: StoreFigures, target: string, label: string, actual: string, pass: boolean | null) =>
    checks.push({ caseId: figures.id, target, label, actual, pass: figures.valid ? pass : null });
  const base = rows.find((row) => row.kind === 'store-writes' && row.records === small);
  for (const figures of rows) {
    const rate = figures.writesPerSecond;
    if (figures.kind === 'store-writes' && figures.records === small) {
      check(figures, `>= ${STORE_TARGETS.writesPerSecond} durable writes/s`, `>=${STORE_TARGETS.writesPerSecond}/s`, `${rate?.toFixed(0)}/s`, rate === null ? null : rate >= STORE_TARGETS.writesPerSecond);
    }
    if (figures.kind === 'store-writes' && figures.records === large && large !== small) {
      const slowdown = base?.valid && base.writesPerSecond && rate ? base.writesPerSecond / rate : null;
      check(
        figures,
        `writes/s within ${STORE_TARGETS.writesSlowdown}x of the rate at ${small} records`,
        `<=${STORE_TARGETS.writesSlowdown}x slower`,
        slowdown === null ? 'not measured' : `${slowdown.toFixed(2)}x slower (${rate!.toFixed(0)} vs ${base!.writesPerSecond!.toFixed(0)}/s)`,
        slowdown === null ? null : slowdown <= STORE_TARGETS.writesSlowdown,
      );
    }
    if (figures.kind === 'store-compaction') {
      const during = figures.p99DuringCompactionMs;
      const outside = figures.p99OutsideCompactionMs;
      const growth = during !== null && outside ? during / outside : null;
      check(
        figures,
        `p99 of writes during a compaction <= ${STORE_TARGETS.compactionP99Growth}x the p99 outside one`,
        `p99 during <=${STORE_TARGETS.compactionP99Growth}x`,
        growth === null ? `fewer than ${MIN_CLASS_WRITES} writes began during (or outside) a compaction` : `${growth.toFixed(2)}x (${during!.toFixed(2)} vs ${outside!.toFixed(2)} ms)`,
        growth === null ? null : growth <= STORE_TARGETS.compactionP99Growth,
      );
    }
    if (figures.kind === 'store-open') {
      const ms = figures.openMs;
      check(figures, `open in < ${STORE_TARGETS.openMs} ms`, `<${STORE_TARGETS.openMs} ms`, ms === null ? 'not measured' : `${ms.toFixed(0)} ms`, ms === null ? null : ms < STORE_TARGETS.openMs);
    }
  }
  return checks;
}
