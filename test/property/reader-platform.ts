import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform, type Api } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';

/** What a reader property works with: the owner's API, the organization, and the Fetch handler that serves the reader. */
export interface ReaderPlatform {
  readonly api: Api;
  readonly organizationId: string;
  readonly handle: (request: Request) => Promise<Response>;
}

/** Runs `use` on a fresh in-memory platform with an organization and its owner, and closes the platform after. */
export async function withReaderPlatform(use: (platform: ReaderPlatform) => Promise<void>): Promise<void> {
  const platform = createPlatform({ store: createMemoryStore(), clock: manualClock('2026-03-01T10:00:00.000Z'), signingKey: 'property-key' });
  try {
    const handle = createFetchHandler(platform);
    const init = await platform.initialize({ title: 'Acme', email: 'owner@acme.test', name: 'Olive' });
    await use({ api: platform.as(init.userId), organizationId: init.organizationId, handle });
  } finally {
    await platform.close();
  }
}
