import { appendFile, mkdtemp, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeSegment, encodeEntry, Journal } from '../../src/store/journal.js';

const folder = await mkdtemp(join(tmpdir(), 'dp-journal-'));
afterAll(() => rm(folder, { recursive: true, force: true }));
let n = 0;
const freshPath = () => join(folder, `data-${++n}.json`);

/** Reads the journal of `path` and opens it for appending, as the store does. */
async function openJournal(path: string) {
  const contents = await Journal.read(path);
  return { journal: await Journal.open(path, contents), contents };
}

const entry = (seq: number, title = `t${seq}`) => ({
  seq,
  changes: [{ table: 'things', id: `id${seq}`, record: { id: `id${seq}`, title } }],
});

describe('journal lines', () => {
  it('round-trips entries, deletes included', () => {
    const entries = [entry(1, 'line\nbreak ✓'), { seq: 2, changes: [{ table: 'things', id: 'id1', record: null }] }];
    const data = Buffer.from(entries.map(encodeEntry).join(''));
    expect(decodeSegment(data)).toEqual({ entries, validBytes: data.length });
  });

  it('stops at a torn last line and says where', () => {
    const whole = encodeEntry(entry(1)) + encodeEntry(entry(2));
    const torn = encodeEntry(entry(3)).slice(0, 20);
    const read = decodeSegment(Buffer.from(whole + torn));
    expect(read.entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(read.validBytes).toBe(Buffer.byteLength(whole));
    expect(read.reason).toMatch(/torn/);
  });

  it('stops at a line whose checksum fails, even when later lines are whole', () => {
    const first = encodeEntry(entry(1));
    const corrupt = encodeEntry(entry(2)).replace('t2', 't9');
    const read = decodeSegment(Buffer.from(first + corrupt + encodeEntry(entry(3))));
    expect(read.entries.map((e) => e.seq)).toEqual([1]);
    expect(read.reason).toBe('checksum mismatch');
  });
});

describe('Journal', () => {
  it('encodes a large entry in slices, timers running between them, into exactly its one line', async () => {
    const path = freshPath();
    let turns = 0;
    let turnsAtFirstWrite: number | undefined;
    // The real file, noting how many timer turns had passed when the first bytes were written.
    const noting = async (segment: string) => {
      const handle = await open(segment, 'a');
      const write = handle.write.bind(handle) as (bytes: Uint8Array, offset: number, length: number) => Promise<{ bytesWritten: number }>;
      return Object.assign(handle, { write: (bytes: Uint8Array, offset: number, length: number) => ((turnsAtFirstWrite ??= turns), write(bytes, offset, length)) });
    };
    const journal = await Journal.open(path, await Journal.read(path), noting);
    const big = { seq: 1, changes: Array.from({ length: 5000 }, (_, i) => ({ table: 'pages', id: `p${i}`, record: { id: `p${i}`, body: `✓ ${'text '.repeat(100)}${i}` } })) };
    const counting = setInterval(() => turns++, 0);
    try {
      await journal.append([big, entry(2)]);
    } finally {
      clearInterval(counting);
    }
    await journal.close();
    expect(turnsAtFirstWrite).toBeGreaterThan(0);
    const { contents } = await openJournal(path);
    expect(contents.entries).toEqual([big, entry(2)]);
    const [segment] = (await readdir(folder)).filter((name) => name.startsWith(`data-${n}.json.journal.`)).sort();
    expect((await readFile(join(folder, segment))).toString('utf8')).toBe(encodeEntry(big) + encodeEntry(entry(2)));
  });

  it('reads back what it appended, in order, across segments', async () => {
    const path = freshPath();
    const { journal } = await openJournal(path);
    await journal.append([entry(1), entry(2)]);
    await journal.rotate();
    await journal.append([entry(3)]);
    await journal.close();
    const { journal: again, contents } = await openJournal(path);
    expect(contents.entries.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(contents.dropped).toEqual([]);
    expect(again.size.entries).toBe(3);
    await again.close();
  });

  it('appends to a new segment after opening, so a torn tail never hides later entries', async () => {
    const path = freshPath();
    const { journal } = await openJournal(path);
    await journal.append([entry(1)]);
    await journal.close();
    const [segment] = (await readdir(folder)).filter((name) => name.startsWith(`data-${n}.json.journal.`));
    await appendFile(join(folder, segment), '0badc0de {"s":2,"c":[');
    const { journal: reopened, contents } = await openJournal(path);
    expect(contents.entries.map((e) => e.seq)).toEqual([1]);
    expect(contents.dropped).toHaveLength(1);
    await reopened.append([entry(2)]);
    await reopened.close();
    const { journal: last, contents: after } = await openJournal(path);
    expect(after.entries.map((e) => e.seq)).toEqual([1, 2]);
    await last.close();
  });

  it('removes sealed segments and keeps the ones after them', async () => {
    const path = freshPath();
    const { journal } = await openJournal(path);
    await journal.append([entry(1)]);
    const sealed = await journal.rotate();
    await journal.append([entry(2)]);
    await journal.removeThrough(sealed);
    expect(journal.size.entries).toBe(1);
    await journal.close();
    const { journal: again, contents } = await openJournal(path);
    expect(contents.entries.map((e) => e.seq)).toEqual([2]);
    await again.close();
  });

  it('ignores files that only look like segments', async () => {
    const path = freshPath();
    await writeFile(`${path}.journal.backup`, 'not a segment');
    const { journal, contents } = await openJournal(path);
    expect(contents.segments).toEqual([]);
    await journal.close();
    expect(await readFile(`${path}.journal.backup`, 'utf8')).toBe('not a segment');
  });
});
