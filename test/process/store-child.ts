/**
 * A child process for the store's crash tests. It opens the JSON-file store at argv[2], records every
 * record it finds (`D <json>`), then writes from many concurrent writers, recording `B <writer> <op>`
 * before each write and `A <writer>` once it is acknowledged, until it is killed: by SIGKILL sent to
 * itself at a chosen step of a chosen compaction, or by the test.
 * The record goes to a file with synchronous writes: a line written is in the kernel before the next
 * step, where a pipe to the parent may still hold it in this process when SIGKILL comes.
 *
 * argv: path, seed, the compaction step to die at ('none' to never die there), which compaction (1..n),
 * the file to record to.
 */
import { openSync, writeSync } from 'node:fs';
import { createJsonFileStore, type CompactionStep } from '../../src/store/json-file.js';
import type { StoredRecord } from '../../src/store/types.js';
import { random } from './random.js';

/** One write of the crash test: set a key to a value, or delete it. */
export type Op = { key: string; value: number } | { key: string; deleted: true };

export const THINGS = 'things';
const ALL = { by: 'kind', order: [] } as const;
const WRITERS = 16;
const SEEDED = 3_000;

const [path, seedText, dieAt, nthText, record] = process.argv.slice(2);
const next = random(Number(seedText));
const nth = Number(nthText);
const recordFd = openSync(record!, 'a');
const out = (line: string) => writeSync(recordFd, `${line}\n`);

let compactions = 0;
const store = await createJsonFileStore({
  path,
  // Small thresholds: compactions come every few hundred writes, over a snapshot of thousands of records.
  compaction: { minBytes: 32 * 1024, ratio: 0, maxEntries: 1_000_000 },
  log: (line) => out(`L ${line}`),
  onCompactionStep: (step: CompactionStep) => {
    if (step === 'started') compactions++;
    if (step === dieAt && compactions === nth) process.kill(process.pid, 'SIGKILL');
  },
});

const records = await store.read((tx) => tx.list(THINGS, { index: ALL, value: 'thing' }));
out(`D ${JSON.stringify(records.items.map((record) => [record.id, record.value]))}`);

const write = (op: Op) =>
  store.write(async (tx) => {
    if ('deleted' in op) await tx.delete(THINGS, op.key);
    else await tx.put(THINGS, { id: op.key, kind: 'thing', value: op.value, padding: 'x'.repeat(80) } satisfies StoredRecord);
  });

if (records.count === 0) {
  // The first run seeds a snapshot-sized state, in transactions of 100 puts, acknowledged as one writer.
  for (let start = 0; start < SEEDED; start += 100) {
    const ops = Array.from({ length: 100 }, (_, i): Op => ({ key: `seed-${start + i}`, value: start + i }));
    for (const op of ops) out(`B seed ${JSON.stringify(op)}`);
    await store.write(async (tx) => {
      for (const op of ops) if (!('deleted' in op)) await tx.put(THINGS, { id: op.key, kind: 'thing', value: op.value });
    });
    out('A seed');
  }
}

/** Each writer owns its keys, so the order of its acknowledgements is the order of its writes. */
async function writer(w: number): Promise<void> {
  for (let n = 0; ; n++) {
    const pick = next();
    const key = pick < 0.5 ? `w${w}-${n}` : pick < 0.8 ? `w${w}-${Math.floor(next() * n)}` : `seed-${w + WRITERS * Math.floor(next() * (SEEDED / WRITERS))}`;
    const op: Op = pick > 0.9 ? { key, deleted: true } : { key, value: Math.floor(next() * 1e9) };
    out(`B ${w} ${JSON.stringify(op)}`);
    await write(op);
    out(`A ${w}`);
  }
}

await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
