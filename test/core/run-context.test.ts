import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import type { BackgroundTask, Caller } from '../../src/core/context.js';
import { urlsFor } from '../../src/core/context.js';
import { oncePerTransaction } from '../../src/core/per-transaction.js';
import { RunContext, type ContextPorts } from '../../src/core/run-context.js';
import { createMemoryStore } from '../../src/store/memory.js';

/** An operation's context (run-context.ts): the request's time, deferred work, and the per-transaction memo. */

const caller: Caller = { userId: 'u1', user: async () => ({ id: 'u1' }) as never };

function contextAt(clock: ReturnType<typeof manualClock>, deferred: BackgroundTask[] = []) {
  const ports = { clock, ids: {}, secrets: {}, fetch: fetch, fetchTimeoutMs: 1000, blobs: {}, derived: {}, workers: {} } as unknown as ContextPorts;
  return createMemoryStore().read(async (tx) => new RunContext(tx, caller, urlsFor('http://docs.test'), ports, deferred, clock.now()));
}

describe('an operation context', () => {
  it('gives the time it was made as `now`, however late it is read', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const ctx = await contextAt(clock);
    clock.advance(60_000);
    expect(ctx.now).toBe('2026-03-01T10:00:00.000Z');
    expect(ctx.now).toBe('2026-03-01T10:00:00.000Z');
  });

  it('hands deferred tasks to the list of its run', async () => {
    const deferred: BackgroundTask[] = [];
    const ctx = await contextAt(manualClock(), deferred);
    const task: BackgroundTask = async () => undefined;
    ctx.defer(task);
    expect(deferred).toEqual([task]);
  });

  it('keeps one memo per context', async () => {
    const clock = manualClock();
    const [first, second] = [await contextAt(clock), await contextAt(clock)];
    let computed = 0;
    const compute = async () => ++computed;
    expect(await oncePerTransaction(first, ['count', 'o1'], compute)).toBe(1);
    expect(await oncePerTransaction(first, ['count', 'o1'], compute)).toBe(1);
    expect(await oncePerTransaction(second, ['count', 'o1'], compute)).toBe(2);
  });
});
