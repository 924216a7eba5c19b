import { readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAPIPageJob } from '../../src/core/content/computed-page.js';
import { defineJob } from '../../src/core/job.js';
import { prepareJobs } from '../../src/core/jobs.js';
import { parseSpecificationJob } from '../../src/core/openapi-specs/parse.js';
import { ApiError } from '../../src/core/errors.js';
import { inlineWorkers } from '../../src/core/inline-workers.js';
import { JobLimitError, type Workers } from '../../src/core/workers.js';
import { createWorkerPool, poolSize, threadCpuTime } from '../../src/workers/pool.js';
import { PETSTORE_31 } from '../http/openapi-sources.js';

/**
 * The worker pool (src/workers/pool.ts): each job runs in a worker thread (started from TypeScript here,
 * inside vitest's worker, where tsx's loader is registered by the thread itself) and gives what the inline
 * runner gives; failures, limits and cancelling come back as errors. Nothing here is timed: that a job ran
 * elsewhere is shown by its moved input (a transferred buffer is detached here) and by the main thread's
 * event loop turning while it ran.
 */

// Every thread a pool starts loads the sources through tsx: seconds each, over 10 on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

let pool: Workers | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** A large OpenAPI document: the pet store with many more paths, each with a summary and a description. */
function bigDocument(paths: number): string {
  const document = structuredClone(PETSTORE_31) as { paths: Record<string, unknown> };
  for (let i = 0; i < paths; i++) {
    document.paths[`/things/${i}`] = { get: { summary: `Get thing ${i}`, description: `Returns thing ${i}, *emphasized*.`, responses: { '200': { description: 'OK' } } } };
  }
  return JSON.stringify(document);
}

/** Runs `work` while counting the turns of this thread's event loop (setImmediate callbacks). */
async function countingTurns<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const turn = () => {
    if (!counting) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const value = await work();
    return { value, turns };
  } finally {
    counting = false;
  }
}

describe('the worker pool', () => {
  it('runs a job in another thread and gives what the inline runner gives', async () => {
    pool = createWorkerPool({ threads: 1 });
    const text = bigDocument(200);
    const inline = await inlineWorkers.run(parseSpecificationJob, [new TextEncoder().encode(text)]);
    const bytes = new TextEncoder().encode(text);
    const pooled = await pool.run(parseSpecificationJob, [bytes]);
    expect(pooled).toEqual(inline);
    expect(pooled?.digest).toMatch(/^[0-9a-f]{64}$/);
    // The bytes were moved to the thread, not copied: this side's buffer is detached.
    expect(bytes.byteLength).toBe(0);
  });

  it('reads a source in the chunks it was fetched in (a character split between two) as the whole text, and moves every chunk', async () => {
    pool = createWorkerPool({ threads: 1 });
    const document = structuredClone(PETSTORE_31) as { info: { description?: string } };
    document.info.description = 'Prices in € and ¥, 🐾 for pets.';
    const bytes = new TextEncoder().encode(JSON.stringify(document));
    const at = bytes.indexOf(0xf0) + 2; // inside the four bytes of 🐾
    const chunks = [bytes.slice(0, at), bytes.slice(at, at + 7), bytes.slice(at + 7)];
    const whole = await inlineWorkers.run(parseSpecificationJob, JSON.stringify(document));
    expect(await pool.run(parseSpecificationJob, chunks)).toEqual(whole);
    expect(new TextDecoder().decode(whole!.json)).toContain('🐾 for pets');
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([0, 0, 0]);
  });

  it('keeps the event loop turning while a job runs, where the inline runner holds it', async () => {
    pool = createWorkerPool({ threads: 1 });
    const input = { document: bigDocument(100), slug: 'things' };
    const inline = await countingTurns(() => inlineWorkers.run(openAPIPageJob, input));
    const pooled = await countingTurns(() => pool!.run(openAPIPageJob, input));
    expect(pooled.value).toEqual(inline.value);
    expect(pooled.value.markdown).toContain('## GET `/things/99`');
    // Generating is synchronous: in-process, not one turn passes until it is done.
    expect(inline.turns).toBe(0);
    expect(pooled.turns).toBeGreaterThan(0);
  });

  it('runs jobs side by side on several threads, and queues the rest', async () => {
    pool = createWorkerPool({ threads: 2 });
    const inputs = Array.from({ length: 5 }, (_, i) => ({ document: bigDocument(10 + i), slug: `s${i}` }));
    const outputs = await Promise.all(inputs.map((input) => pool!.run(openAPIPageJob, input)));
    outputs.forEach(({ markdown }, i) => expect(markdown).toContain(`## GET \`/things/${9 + i}\``));
  });

  it('rejects with the message of a job that throws, an ApiError keeping its status', async () => {
    pool = createWorkerPool({ threads: 1 });
    // Not JSON: the job answers with a message page, it does not throw.
    expect((await pool.run(openAPIPageJob, { document: '{', slug: 'broken' })).markdown).toContain('could not be read');
    // A job the registry does not list fails in the thread, with a message saying so.
    const unknown = defineJob({ name: 'notRegistered', what: 'an unlisted job', run: () => 1 });
    await expect(pool.run(unknown, undefined)).rejects.toThrow(/an unlisted job failed: No job named notRegistered/);
    await expect(inlineWorkers.run(unknown, undefined)).rejects.toThrow(/No job named notRegistered/);
    // An input that is neither text nor bytes makes the job itself throw: its message comes back.
    const error = await pool.run(openAPIPageJob, { document: 42 as unknown as string, slug: 'null' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^generating the pages of an OpenAPI document failed: \S/);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('stops a job past its time with a 422 naming the limit, and goes on with the next', async () => {
    // Its time of work: the thread's CPU time (Linux; the wall time elsewhere), the wall time's backstop far.
    pool = createWorkerPool({ threads: 1, jobTimeoutMs: 1, jobWallTimeoutMs: 600_000 });
    const error = await pool.run(openAPIPageJob, { document: bigDocument(5000), slug: 'slow' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobLimitError);
    expect((error as ApiError).status).toBe(422);
    expect((error as Error).message).toBe('generating the pages of an OpenAPI document went over 0.001 s of work, the most one job may use');
  });

  it("counts a job's CPU time, not its wall time, against its time of work (the CPU-time source injected)", async () => {
    const job = { document: bigDocument(2000), slug: 'things' };
    // A thread that never gets a core (its CPU time stands still) is not stopped, however long the job waits.
    pool = createWorkerPool({ threads: 1, jobTimeoutMs: 10, jobWallTimeoutMs: 600_000, cpuTime: () => 0 });
    expect((await pool.run(openAPIPageJob, job)).markdown).toContain('## GET `/things/99`');
    await pool.close();
    // A thread whose CPU time runs on is stopped past the limit, with the wall time far from its own.
    let cpu = 0;
    pool = createWorkerPool({ threads: 1, jobTimeoutMs: 10, jobWallTimeoutMs: 600_000, cpuTime: () => (cpu += 1000) });
    const error = await pool.run(openAPIPageJob, job).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobLimitError);
    expect((error as Error).message).toBe('generating the pages of an OpenAPI document went over 0.01 s of work, the most one job may use');
  });

  it('stops a job past its wall time too, as a backstop, naming it', async () => {
    pool = createWorkerPool({ threads: 1, jobTimeoutMs: 600_000, jobWallTimeoutMs: 1, cpuTime: () => 0 });
    const error = await pool.run(openAPIPageJob, { document: bigDocument(5000), slug: 'slow' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobLimitError);
    expect((error as Error).message).toBe('generating the pages of an OpenAPI document went over 0.001 s in all, the most one job may use');
  });

  it.runIf(process.platform === 'linux')("reads a thread's CPU time on Linux", () => {
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    expect(threadCpuTime(thread)).toBeGreaterThan(0);
    expect(threadCpuTime(-1)).toBeUndefined();
  });

  it('starts warm threads with the pool, keeps them when idle, runs jobs on them, and replaces one that ends', async () => {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const cold = createWorkerPool({ threads: 1, idleTimeoutMs: 10 });
    const warm = createWorkerPool({ threads: 2, warmThreads: 1, idleTimeoutMs: 10 });
    const strict = createWorkerPool({ threads: 1, warmThreads: 1, jobTimeoutMs: 1 });
    try {
      expect([cold.threadCount, warm.threadCount]).toEqual([0, 1]);
      const bytes = () => [new TextEncoder().encode(JSON.stringify(PETSTORE_31))];
      await Promise.all([cold.run(parseSpecificationJob, bytes()), warm.run(parseSpecificationJob, bytes())]);
      // Both waited past their idle time: the cold pool's thread ended, the warm one stays.
      await pause(100);
      expect([cold.threadCount, warm.threadCount]).toEqual([0, 1]);
      // A warm thread that ends (its job went over its time) is replaced.
      expect(await strict.run(parseSpecificationJob, bytes()).catch((caught: unknown) => caught)).toBeInstanceOf(JobLimitError);
      expect(strict.threadCount).toBe(1);
    } finally {
      await Promise.all([cold.close(), warm.close(), strict.close()]);
    }
    expect(warm.threadCount).toBe(0);
  });

  it('prepares the jobs: the OpenAPI job readies its validator, and preparing all of them never throws', async () => {
    await expect(parseSpecificationJob.prepare!()).resolves.toBeUndefined();
    await expect(prepareJobs()).resolves.toBeUndefined();
    // A warm thread prepares them as it starts; a job sent at once still gets the right answer.
    pool = createWorkerPool({ threads: 1, warmThreads: 1 });
    expect((await pool.run(parseSpecificationJob, [new TextEncoder().encode(JSON.stringify(PETSTORE_31))]))?.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stops a job whose thread runs out of its memory with a 422 naming the limit', async () => {
    pool = createWorkerPool({ threads: 1, jobMemoryMb: 64 });
    // About 30 MB of text, and many times that once parsed: more than the thread may hold.
    const error = await pool.run(openAPIPageJob, { document: bigDocument(200_000), slug: 'huge' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JobLimitError);
    expect((error as Error).message).toBe('generating the pages of an OpenAPI document went over 64 MB of memory, the most one job may use');
    // The pool replaces the thread it lost.
    expect((await pool.run(openAPIPageJob, { document: bigDocument(1), slug: 'small' })).markdown).toContain('## GET `/things/0`');
    // Filling 64 MB and starting a new thread takes ~10 s alone on two cores, more on a busy machine.
  }, 60_000);

  it('cancels a queued or running job when its signal aborts, and rejects everything once closed', async () => {
    pool = createWorkerPool({ threads: 1 });
    const running = new AbortController();
    const queued = new AbortController();
    const first = pool.run(openAPIPageJob, { document: bigDocument(3000), slug: 'a' }, running.signal);
    const second = pool.run(openAPIPageJob, { document: bigDocument(3000), slug: 'b' }, queued.signal);
    queued.abort(new Error('not wanted any more'));
    running.abort(new Error('the platform is closing'));
    await expect(first).rejects.toThrow('the platform is closing');
    await expect(second).rejects.toThrow('not wanted any more');
    const pending = expect(pool.run(openAPIPageJob, { document: bigDocument(3000), slug: 'c' })).rejects.toThrow('The worker pool is closed');
    await pool.close();
    await pending;
    await expect(pool.run(openAPIPageJob, { document: '{}', slug: 'd' })).rejects.toThrow('The worker pool is closed');
  });

  it('takes its size from the option, else DOCS_PLATFORM_WORKER_THREADS, else the cores but one', () => {
    expect(poolSize('3')).toBe(3);
    expect(poolSize(undefined)).toBeGreaterThanOrEqual(1);
    expect(() => poolSize('0')).toThrow(/at least 1/);
    expect(() => poolSize('two')).toThrow(/DOCS_PLATFORM_WORKER_THREADS/);
  });
});
