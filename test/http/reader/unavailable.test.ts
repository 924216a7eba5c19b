import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../../src/adapters/fetch/index.js';
import { createPlatform } from '../../../src/core/platform.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import { StoreUnavailableError } from '../../../src/store/types.js';

describe('reader when the store cannot be reached', () => {
  it('answers 503 with a page saying to try again, not the API error shape', async () => {
    const store = createMemoryStore();
    const platform = createPlatform({ store, signingKey: 'k' });
    const { organizationId } = await platform.initialize();
    const handler = createFetchHandler(platform);
    store.read = async () => {
      throw new StoreUnavailableError('The database cannot be reached (connect ECONNREFUSED); try again');
    };
    const response = await handler(new Request(`http://x.test/published/o/${organizationId}/handbook`));
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('<h1 class="page-title">Try again in a moment</h1>');
    expect(text).toContain('The database cannot be reached (connect ECONNREFUSED); try again');
    await platform.close();
  });
});
