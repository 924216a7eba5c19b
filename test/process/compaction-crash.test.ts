import { appendFile, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { CorruptDataFileError, createJsonFileStore, type CompactionStep } from '../../src/store/json-file.js';
import { random } from './random.js';
import { cleanUp, start, tempDir, type Child } from './spawn.js';
import type { Op } from './store-child.js';

afterEach(cleanUp);

/** Kill runs per step kind; STORE_CRASH_ITERATIONS raises it for a longer soak. */
const ITERATIONS = Math.max(20, Number(process.env.STORE_CRASH_ITERATIONS ?? 20));
/** The seed of the kill points and the write mix; STORE_CRASH_SEED replays a failing run. */
const SEED = Number(process.env.STORE_CRASH_SEED ?? Date.now() % 1_000_000);
/** Where a run dies: at a step of a compaction, or at a random moment ('anytime'). */
const KILL_POINTS: (CompactionStep | 'anytime')[] = ['started', 'snapshot-written', 'snapshot-renamed', 'journal-removed', 'anytime'];

/**
 * What the store may hold: every acknowledged write applied in order, per writer; a writer's last
 * unacknowledged group of writes may have been applied too, entirely or not at all.
 */
class Model {
  readonly values = new Map<string, number>();
  /** How many writes were acknowledged, over every run. */
  acknowledged = 0;
  /** Per writer, the writes it began and that were not acknowledged yet. */
  private readonly begun = new Map<string, Op[]>();

  /** Follows a child's output: `B <writer> <op>` begins a write, `A <writer>` acknowledges its group. */
  follow(output: string): void {
    for (const line of output.split('\n')) {
      if (line.startsWith('B ')) {
        const space = line.indexOf(' ', 2);
        const writer = line.slice(2, space);
        this.begun.set(writer, [...(this.begun.get(writer) ?? []), JSON.parse(line.slice(space + 1)) as Op]);
      } else if (line.startsWith('A ')) {
        const writer = line.slice(2);
        for (const op of this.begun.get(writer) ?? []) apply(this.values, op);
        this.acknowledged += this.begun.get(writer)?.length ?? 0;
        this.begun.delete(writer);
      }
    }
  }

  /** Checks what a restarted store holds; then takes in the unacknowledged writes that did survive. */
  check(found: [string, number][] | undefined): void {
    if (!found) return;
    const actual = new Map(found);
    const maybe = [...this.begun.values()];
    this.begun.clear();
    for (const group of maybe) {
      // A group is all in or all out: take it in when its first write shows.
      const probe = new Map(this.values);
      for (const op of group) apply(probe, op);
      if (group.every((op) => actual.get(op.key) === probe.get(op.key))) for (const op of group) apply(this.values, op);
    }
    const extra = [...actual.keys()].filter((key) => !this.values.has(key)).map((key) => `${key}=${actual.get(key)}`);
    expect(extra, `records nobody wrote, or deleted by an acknowledged write (unacknowledged: ${JSON.stringify(maybe)})`).toEqual([]);
    for (const [key, value] of this.values) expect(actual.get(key), `record ${key}`).toBe(value);
  }
}

function apply(values: Map<string, number>, op: Op): void {
  if ('deleted' in op) values.delete(op.key);
  else values.set(op.key, op.value);
}

/** One run of the store child, and the file it records to. */
class StoreRun {
  readonly child: Child;
  private readonly record: string;

  constructor(folder: string, seed: number, dieAt: string, nth: number) {
    this.record = join(folder, `run-${++runs}.log`);
    const args = ['--import', 'tsx', 'test/process/store-child.ts', join(folder, 'data.json'), String(seed), dieAt, String(nth), this.record];
    this.child = start(process.execPath, args);
  }

  /**
   * The records the child found on open, once it has recorded them; undefined when it died before (a
   * compaction can start on open, as soon as the replayed journal is past the threshold).
   */
  async found(): Promise<[string, number][] | undefined> {
    let exited = false;
    void this.child.exited.then(() => (exited = true));
    for (;;) {
      const line = /^D (.*)\n/m.exec(await this.output());
      if (line) return JSON.parse(line[1]!);
      if (exited) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Everything recorded so far. */
  output(): Promise<string> {
    return readFile(this.record, 'utf8').catch(() => '');
  }

  /** SIGKILLs the child (when it is still running) and resolves with all it recorded. */
  async kill(): Promise<string> {
    this.child.signal('SIGKILL');
    const exit = await this.child.exited;
    expect(exit.signal, `ended by SIGKILL\n${this.child.stderr}`).toBe('SIGKILL');
    return this.output();
  }
}
let runs = 0;

/** The journal segments beside the snapshot. */
async function segmentsIn(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter((name) => name.includes('.journal.')).sort();
}

describe(`crashes of the JSON-file store during compaction (seed ${SEED})`, () => {
  test(`${ITERATIONS} kill -9s at every compaction step and at random moments lose no acknowledged write`, async () => {
    const next = random(SEED);
    const folder = tempDir();
    const model = new Model();
    for (let i = 0; i < ITERATIONS; i++) {
      const dieAt = KILL_POINTS[i % KILL_POINTS.length];
      const run = new StoreRun(folder, Math.floor(next() * 2 ** 31), dieAt === 'anytime' ? 'none' : dieAt, 1 + Math.floor(next() * 3));
      model.check(await run.found());
      if (dieAt === 'anytime') await new Promise((resolve) => setTimeout(resolve, 100 + next() * 400));
      else await run.child.exited;
      model.follow(await run.kill());
    }
    const last = new StoreRun(folder, 1, 'none', 1);
    const final = await last.found();
    expect(final).toBeDefined();
    model.check(final);
    await last.kill();
    expect(model.acknowledged).toBeGreaterThan(3_000);
    // Compactions folded the journal away as they went: a few segments are left, not one per run.
    const segments = await segmentsIn(folder);
    expect(segments.length).toBeLessThan(ITERATIONS / 2);
  }, 240_000);

  test('a torn last journal record is ignored and reported; everything acknowledged before it is there', async () => {
    const folder = tempDir();
    const model = new Model();
    const first = new StoreRun(folder, 7, 'none', 1);
    model.check(await first.found());
    while (!/^A 3$/m.test(await first.output())) await new Promise((resolve) => setTimeout(resolve, 20));
    model.follow(await first.kill());
    const segments = await segmentsIn(folder);
    const lastSegment = join(folder, segments.at(-1)!);
    const before = (await stat(lastSegment)).size;
    await appendFile(lastSegment, '1a2b3c4d {"s":999999,"c":[["things","torn",{"id":"to');

    const reopened = new StoreRun(folder, 8, 'none', 1);
    model.check(await reopened.found());
    const output = await reopened.kill();
    expect(output).toMatch(new RegExp(`L docs-platform store: ignored \\d+ bytes at offset ${before} of \\S+ \\(incomplete last line`));
    expect(output).not.toContain('"torn"');
  }, 60_000);

  test('a last record whose checksum fails is ignored too', async () => {
    const folder = tempDir();
    const path = join(folder, 'data.json');
    const store = await createJsonFileStore({ path, log: () => undefined });
    await store.write((tx) => tx.put('things', { id: 'kept' }));
    await store.write((tx) => tx.put('things', { id: 'flipped' }));
    // A crash leaves the journal as it is; copy it aside before close() folds it into the snapshot.
    const segment = (await segmentsIn(folder))[0]!;
    const journal = await readFile(join(folder, segment), 'utf8');
    await store.close();
    await writeFile(path, '');
    await writeFile(join(folder, segment), journal.replace('"flipped"}', '"flipPed"}'));
    const logged: string[] = [];
    const reopened = await createJsonFileStore({ path, log: (line) => logged.push(line) });
    expect(await reopened.read((tx) => tx.get('things', 'kept'))).toEqual({ id: 'kept' });
    expect(await reopened.read((tx) => tx.get('things', 'flipped'))).toBeUndefined();
    expect(await reopened.read((tx) => tx.get('things', 'flipPed'))).toBeUndefined();
    expect(logged.join('\n')).toMatch(/ignored \d+ bytes .*checksum mismatch/);
    await reopened.close();
  });

  test('a corrupt snapshot is refused with a clear error, and neither it nor the journal is touched', async () => {
    const folder = tempDir();
    const path = join(folder, 'data.json');
    const store = await createJsonFileStore({ path });
    await store.write((tx) => tx.put('things', { id: 'a' }));
    await store.close();
    const stillJournaled = await createJsonFileStore({ path });
    await stillJournaled.write((tx) => tx.put('things', { id: 'b' }));
    const segment = (await segmentsIn(folder))[0]!;
    const journal = await readFile(join(folder, segment), 'utf8');
    await stillJournaled.close();
    await writeFile(join(folder, segment), journal);
    await truncate(path, 40);
    const snapshot = await readFile(path, 'utf8');

    const error = await createJsonFileStore({ path }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CorruptDataFileError);
    expect((error as Error).message).toMatch(/data\.json cannot be read as a docs-platform data file \(invalid JSON.*left untouched/);
    expect(await readFile(path, 'utf8')).toBe(snapshot);
    expect(await readFile(join(folder, segment), 'utf8')).toBe(journal);
    // Refused again on the next try: the lock was released, nothing was "repaired".
    await expect(createJsonFileStore({ path })).rejects.toBeInstanceOf(CorruptDataFileError);
  });
});
