import { expect } from 'vitest';
import type { TestResponse } from './harness.js';

/** A request body (or query) and the error message it must be refused with. */
export type Refusal<T = unknown> = readonly [input: T, message: RegExp];

/**
 * Sends each input and expects a refusal with `status` (400 by default) whose message matches; the
 * caller then asserts that nothing stored changed.
 */
export async function expectRefusals<T>(send: (input: T) => Promise<TestResponse>, cases: readonly Refusal<T>[], status = 400): Promise<void> {
  for (const [input, message] of cases) {
    const label = JSON.stringify(input)?.slice(0, 200);
    const response = await send(input);
    expect(response.status, label).toBe(status);
    expect(response.body.error.message, label).toMatch(message);
  }
}
