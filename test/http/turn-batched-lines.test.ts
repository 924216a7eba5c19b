/** The bundled server's log lines: written together at the end of each event-loop turn, and at exit. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { turnBatchedLines } from '../../src/adapters/node-http/turn-batched-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'turn-batched-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const read = (file: string) => readFileSync(file, 'utf8');

describe('turnBatchedLines', () => {
  it('holds the lines of a turn and writes them, in order, at its end', async () => {
    const file = join(dir, 'turn.log');
    const out = turnBatchedLines(file);
    for (let i = 0; i < 3; i++) out.write(`line ${i}\n`);
    await Promise.resolve();
    expect(read(file)).toBe('');
    await nextTurn();
    expect(read(file)).toBe('line 0\nline 1\nline 2\n');
    out.write('next turn\n');
    await nextTurn();
    expect(read(file)).toBe('line 0\nline 1\nline 2\nnext turn\n');
  });

  it('writes at once once a turn holds 64 KiB', () => {
    const file = join(dir, 'large.log');
    const out = turnBatchedLines(file);
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) out.write(line);
    expect(read(file)).toBe(line.repeat(64));
  });

  it('writes the lines still held when the process exits in the same turn', () => {
    const file = join(dir, 'exit.log');
    const script = join(dir, 'exit.ts');
    const module = resolve('src/adapters/node-http/turn-batched-lines.ts');
    writeFileSync(script, `import { turnBatchedLines } from ${JSON.stringify(module)};\nconst out = turnBatchedLines(${JSON.stringify(file)});\nout.write('last words\\n');\nprocess.exit(3);\n`);
    const child = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(child.status).toBe(3);
    expect(read(file)).toBe('last words\n');
  });
});
