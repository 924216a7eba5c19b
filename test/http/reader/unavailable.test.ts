import { describe, expect, it } from 'vitest';
import { platformWithUnreachableStore, RETRY_AFTER_SECONDS, UNREACHABLE } from '../unreachable-store.js';

describe('reader when the store cannot be reached', () => {
  it('answers 503 with a page saying to try again, with the Retry-After the store gives, not the API error shape', async () => {
    const { platform, handler, organizationId } = await platformWithUnreachableStore();
    const response = await handler(new Request(`http://x.test/published/o/${organizationId}/handbook`));
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    const text = await response.text();
    expect(text).toContain('<h1 class="page-title">Try again in a moment</h1>');
    expect(text).toContain(UNREACHABLE);
    await platform.close();
  });
});
