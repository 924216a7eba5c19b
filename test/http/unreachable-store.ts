import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createPlatform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { StoreUnavailableError } from '../../src/store/types.js';

/** What a store that stops answering says. */
export const UNREACHABLE = 'The database cannot be reached (connect ECONNREFUSED); try again';

/** How long the store says to wait before trying again (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

/** A platform with an organization, served by the Fetch handler, whose store then stops answering reads. */
export async function platformWithUnreachableStore() {
  const store = createMemoryStore();
  const platform = createPlatform({ store, signingKey: 'k' });
  const initialized = await platform.initialize();
  store.read = async () => {
    throw new StoreUnavailableError(UNREACHABLE, { retryAfterSeconds: RETRY_AFTER_SECONDS });
  };
  return { platform, handler: createFetchHandler(platform), ...initialized };
}
