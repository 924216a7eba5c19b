import { INDEXES, TABLES } from '../src/core/records.js';
import { createMemoryStore } from '../src/store/memory.js';
import { countingStore, type CountingStore } from '../test/store/counting-store.js';
import { sizeLabel } from './cases.js';
import { contentFixture, type ContentFixture } from './content-fixture.js';
import { percentile } from './load.js';
import { fixed } from './report.js';
import type { Check } from './targets.js';

/** What a row of the content case measures. */
export type ContentKind = 'content-read-id' | 'content-read-path' | 'content-search' | 'content-edit' | 'content-merge';

const KINDS: readonly ContentKind[] = ['content-read-id', 'content-read-path', 'content-search', 'content-edit', 'content-merge'];

/** The content case's settings: the space sizes and how many timed rounds each row has. */
export interface ContentSettings {
  /** Pages in the space, smallest first (BENCH_CONTENT_SIZES, default 100 and 10,000). */
  readonly sizes: readonly number[];
  /** Timed rounds a row (BENCH_CONTENT_ROUNDS, default 200), after 10 untimed ones (3 for merges). */
  readonly rounds: number;
}

/** One row: one kind of work at one size, timed in-process. */
export interface ContentRow {
  id: string;
  kind: ContentKind;
  pages: number;
  rounds: number;
  p50Ms: number | null;
  p99Ms: number | null;
  /** Content map nodes one round reads (merges) or writes (edit batches), on average. */
  nodesRead: number | null;
  nodesWritten: number | null;
  valid: boolean;
  problems: string[];
  checks: Check[];
}

/** The content case's rows, its checks, and how long it took. */
export interface ContentResults {
  rows: ContentRow[];
  checks: Check[];
  seconds: number;
  /** Seconds to build each size's space, by size. */
  seeded: Record<string, number>;
}

/** The space and rounds of the untimed pass that compiles the code before anything is measured. */
const WARMUP_PAGES = 50;
const WARMUP_ROUNDS = 30;

/** The targets of issue #6 for the content case. */
export const CONTENT_TARGETS = {
  /** A page read (by id, by path) and a space search: p50 under this many ms, at every size. */
  readP50Ms: 5,
  /** An edit batch's p50 at the largest size: at most this multiple of the smallest size's. */
  editGrowth: 2,
};

/** The ids of the content case's rows (`content-read-id-10k`, ...), without running anything. */
export function contentCaseIds(settings: ContentSettings): string[] {
  return settings.sizes.flatMap((pages) => KINDS.map((kind) => `${kind}-${sizeLabel(pages)}`));
}

/** The p50 and p99 of some samples (nearest rank, as the HTTP cases), in ms rounded to the microsecond. */
function percentiles(samples: number[]): { p50Ms: number; p99Ms: number } {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => Number(percentile(sorted, q).toFixed(3));
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

/** Runs `round` `warmup` times untimed, then `rounds` times timed (only `measure`'s part of each round). */
async function timeRounds(rounds: number, warmup: number, round: (i: number, measure: <T>(work: () => Promise<T>) => Promise<T>) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + rounds; i++) {
    await round(i, async (work) => {
      const started = performance.now();
      const result = await work();
      if (i >= warmup) samples.push(performance.now() - started);
      return result;
    });
  }
  return samples;
}

/** Times a call that is the whole round. */
const timeCalls = (rounds: number, call: (i: number) => Promise<unknown>) => timeRounds(rounds, 10, (i, measure) => measure(() => call(i)).then(() => undefined));

/**
 * Measures one size: the rows of `kinds` on one space of `pages` pages (contentFixture).
 * - read-id / read-path: GET one page of the space (Markdown) by id, and by path;
 * - search: `searchSpaceContent` with one or two words, over the whole space;
 * - edit: an authoring batch that changes one page's title and body, in an open change request;
 * - merge: each round makes two change requests from the space's revision, each changing one page,
 *   merges the first (untimed: the space has not moved, so it only shares the request's maps) and times
 *   the merge of the second, a real three-way merge whose sides each changed one page.
 */
async function measureSize(pages: number, kinds: ReadonlySet<ContentKind>, rounds: number, print: (line: string) => void): Promise<{ rows: ContentRow[]; seeded: number }> {
  const counting = countingStore(createMemoryStore());
  const started = performance.now();
  const f = await contentFixture(pages, counting.store);
  const seeded = (performance.now() - started) / 1000;
  print(`  content: ${pages.toLocaleString('en-US')} pages seeded in ${seeded.toFixed(1)} s`);
  const rows: ContentRow[] = [];
  const row = (kind: ContentKind, samples: number[], extra: Partial<ContentRow> = {}) => {
    const made: ContentRow = {
      id: `${kind}-${sizeLabel(pages)}`,
      kind,
      pages,
      rounds: samples.length,
      ...(samples.length > 0 ? percentiles(samples) : { p50Ms: null, p99Ms: null }),
      nodesRead: null,
      nodesWritten: null,
      valid: samples.length > 0,
      problems: [],
      checks: [],
      ...extra,
    };
    rows.push(made);
    print(describeRow(made));
  };
  const { api, spaceId, pick } = f;
  try {
    if (kinds.has('content-read-id')) row('content-read-id', await timeCalls(rounds, (i) => api.getSpacePage({ spaceId, pageId: pick(i) })));
    if (kinds.has('content-read-path')) {
      const paths = await Promise.all(Array.from({ length: 50 }, async (_, i) => ((await api.getSpacePage({ spaceId, pageId: pick(i) })) as { path: string }).path));
      row('content-read-path', await timeCalls(rounds, (i) => api.getSpacePageByPath({ spaceId, pagePath: paths[i % paths.length] })));
    }
    if (kinds.has('content-search')) await measureSearch(f, rounds, row);
    if (kinds.has('content-edit')) await measureEdit(f, rounds, row);
    if (kinds.has('content-merge')) await measureMerge(f, rounds, counting, row);
  } finally {
    await f.platform.close();
  }
  return { rows, seeded };
}

type AddRow = (kind: ContentKind, samples: number[], extra?: Partial<ContentRow>) => void;

async function measureSearch({ api, spaceId }: ContentFixture, rounds: number, row: AddRow): Promise<void> {
  // One word on about 1% of the pages; a word on every page with a number on one or a few; two words.
  const queries = (i: number) => [`topic${i % 97}`, `page ${i}`, `text topic${(i * 31) % 97}`][i % 3];
  row('content-search', await timeCalls(rounds, (i) => api.searchSpaceContent({ spaceId, query: queries(i) })));
}

async function measureEdit({ platform, api, spaceId, pick }: ContentFixture, rounds: number, row: AddRow): Promise<void> {
  const cr = await api.createChangeRequest({ spaceId });
  const nodes = () => platform.store.read(async (tx) => (await tx.list(TABLES.contentNodes, { index: INDEXES.contentNodesBySpace, value: spaceId, limit: 0 })).count);
  const before = await nodes();
  const samples = await timeCalls(rounds, (i) =>
    api.updateChangeRequestContent({
      spaceId,
      changeRequestId: cr.id,
      changes: [{ operation: 'update_page', page: pick(i), title: `Edited ${i}`, document: { markdown: `Edited body ${i}.` } }],
    }),
  );
  row('content-edit', samples, { nodesWritten: Number((((await nodes()) - before) / (rounds + 10)).toFixed(2)) });
}

async function measureMerge({ api, spaceId, pick }: ContentFixture, rounds: number, counting: CountingStore, row: AddRow): Promise<void> {
  const problems: string[] = [];
  let nodesRead = 0;
  const edit = async (changeRequestId: string, page: string, i: number) =>
    api.updateChangeRequestContent({ spaceId, changeRequestId, changes: [{ operation: 'update_page', page, title: `Merged ${i}`, document: { markdown: `Merged body ${i}.` } }] });
  const samples = await timeRounds(rounds, 3, async (i, measure) => {
    const first = await api.createChangeRequest({ spaceId });
    const second = await api.createChangeRequest({ spaceId });
    await edit(first.id, pick(2 * i), i);
    await edit(second.id, pick(2 * i + 1), i);
    await api.mergeChangeRequest({ spaceId, changeRequestId: first.id });
    counting.reset();
    const { result } = await measure(() => api.mergeChangeRequest({ spaceId, changeRequestId: second.id }));
    nodesRead += counting.readsOf(TABLES.contentNodes);
    if (result !== 'merge' && problems.length === 0) problems.push(`a merge answered ${result}, not merge`);
  });
  row('content-merge', samples, { nodesRead: Number((nodesRead / (rounds + 3)).toFixed(1)), problems, valid: problems.length === 0 });
}

/** Checks the targets of the rows measured: reads and searches under 5 ms p50, edit batches within 2x. */
function checkContentTargets(rows: readonly ContentRow[]): Check[] {
  const checks: Check[] = [];
  const check = (row: ContentRow, target: string, label: string, actual: string, pass: boolean | null) =>
    checks.push({ caseId: row.id, target, label, actual, pass: row.valid ? pass : null });
  const smallest = Math.min(...rows.map((row) => row.pages));
  for (const row of rows) {
    if (row.kind === 'content-read-id' || row.kind === 'content-read-path' || row.kind === 'content-search') {
      const limit = CONTENT_TARGETS.readP50Ms;
      check(row, `p50 < ${limit} ms`, `p50<${limit}ms`, row.p50Ms === null ? 'not measured' : `${row.p50Ms} ms`, row.p50Ms === null ? null : row.p50Ms < limit);
    }
    if (row.kind === 'content-edit' && row.pages !== smallest) {
      const base = rows.find((other) => other.kind === 'content-edit' && other.pages === smallest);
      const growth = base?.valid && base.p50Ms && row.p50Ms !== null ? row.p50Ms / base.p50Ms : null;
      check(
        row,
        `p50 <= ${CONTENT_TARGETS.editGrowth}x the p50 at ${smallest} pages`,
        `p50 <=${CONTENT_TARGETS.editGrowth}x`,
        growth === null ? 'not measured' : `${growth.toFixed(2)}x (${row.p50Ms} vs ${base!.p50Ms} ms)`,
        growth === null ? null : growth <= CONTENT_TARGETS.editGrowth,
      );
    }
  }
  return checks;
}

/**
 * The content case (ids `content-*`): the content model in-process, on the memory store, at each size
 * of `settings`: page reads, space search, an edit batch and a merge, each row p50 and p99 over
 * `settings.rounds` timed rounds. Only the rows in `ids` run; a size none of whose rows is wanted is not
 * built. `print` hears a line per row.
 */
export async function runContentCase(settings: ContentSettings, ids: readonly string[], print: (line: string) => void): Promise<ContentResults> {
  const started = performance.now();
  const wanted = new Set(ids);
  const rows: ContentRow[] = [];
  const seeded: Record<string, number> = {};
  // The first size measured would otherwise also pay for compiling the code (JIT): the smallest size
  // would look slow, and a ratio to it (the edit target) better than it is.
  const everyKind = new Set(KINDS.filter((kind) => ids.some((id) => id.startsWith(`${kind}-`))));
  if (everyKind.size > 0) await measureSize(WARMUP_PAGES, everyKind, WARMUP_ROUNDS, () => undefined);
  for (const pages of settings.sizes) {
    const kinds = new Set(KINDS.filter((kind) => wanted.has(`${kind}-${sizeLabel(pages)}`)));
    if (kinds.size === 0) continue;
    const measured = await measureSize(pages, kinds, settings.rounds, print);
    rows.push(...measured.rows);
    seeded[sizeLabel(pages)] = Number(measured.seeded.toFixed(2));
  }
  const checks = checkContentTargets(rows);
  for (const each of rows) each.checks = checks.filter((check) => check.caseId === each.id);
  return { rows, checks, seconds: (performance.now() - started) / 1000, seeded };
}

/** One printed line of a row, as it is measured. */
function describeRow(row: ContentRow): string {
  const ms = (value: number | null) => fixed(value, 3);
  const nodes = row.nodesRead !== null ? `  ${row.nodesRead} map nodes read` : row.nodesWritten !== null ? `  ${row.nodesWritten} map nodes written` : '';
  return `  ${row.id.padEnd(24)} p50 ${ms(row.p50Ms).padStart(8)} ms  p99 ${ms(row.p99Ms).padStart(8)} ms${nodes}${row.problems.length ? `  INVALID: ${row.problems.join('; ')}` : ''}`;
}
