import type { CompactionStep } from '../src/store/json-file.js';

/** One compaction: when it started and ended (performance.now() ms; `end` is null while it runs). */
export interface CompactionSpan {
  readonly start: number;
  end: number | null;
}

/**
 * Follows a store's compactions through its `onCompactionStep` hook: whether one is running now (a
 * compaction runs from its `started` step to its `journal-removed` step) and when each ran. The store
 * case classifies each write by `running` at the moment the write began.
 */
export class CompactionWatch {
  readonly spans: CompactionSpan[] = [];
  private waiting: (() => void)[] = [];

  /** The hook to give the store. */
  readonly onStep = (step: CompactionStep): void => {
    if (step === 'started') this.spans.push({ start: performance.now(), end: null });
    else if (step === 'journal-removed') {
      this.spans[this.spans.length - 1].end = performance.now();
      for (const resolve of this.waiting.splice(0)) resolve();
    }
  };

  /** Whether a compaction is between its first and its last step. */
  get running(): boolean {
    return this.spans.length > 0 && this.spans[this.spans.length - 1].end === null;
  }

  /** Resolves once no compaction is running. */
  idle(): Promise<void> {
    return this.running ? new Promise((resolve) => this.waiting.push(resolve)) : Promise.resolve();
  }
}
