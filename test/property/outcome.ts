import { ApiError } from '../../src/core/errors.js';

/** Runs an operation and returns the status it failed with (an ApiError's), or 'ok'; anything else is rethrown. */
export async function outcome(action: () => Promise<unknown>): Promise<number | 'ok'> {
  try {
    await action();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}
