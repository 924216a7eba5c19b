import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { createPlatform } from '../../src/core/platform.js';
import { TABLES, type SiteRecord } from '../../src/core/records.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * The upgrade of an earlier version's share keys (sites/share-links/upgrade.ts): each becomes a share link
 * with the same key, so links handed out keep working, and can be revoked like any other.
 */
describe('the upgrade of share keys to share links', () => {
  it('keeps the key of every share-link site, and of sites whose key was rotated, as a share link of its own', async () => {
    const store = createMemoryStore();
    const earlier = createPlatform({ store, signingKey: 'upgrade-test' });
    const { organizationId, userId } = await earlier.initialize({ title: 'Acme', email: 'owner@acme.test' });
    const api = earlier.as(userId);
    const space = await api.createSpace({ organizationId, title: 'Guide' } as never);
    await api.updateSpace({ spaceId: space.id, visibility: 'public' } as never);
    const request = await api.createChangeRequest({ spaceId: space.id } as never);
    const changes = [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.\n' } }];
    await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: request.id, changes } as never);
    await api.mergeChangeRequest({ spaceId: space.id, changeRequestId: request.id });
    const site = async (visibility: string) => {
      const created = await api.createSite({ organizationId, title: 'Handbook', spaces: [space.id], visibility } as never);
      await api.publishSite({ organizationId, siteId: created.id });
      return created.id as string;
    };
    const shared = await site('share-link');
    const rotated = await site('public');
    const untouched = await site('public');
    // The data an earlier version left: rotation counts on the sites, and no upgrade done.
    await store.write(async (tx) => {
      for (const [id, share] of [[shared, 1], [rotated, 2]] as const) {
        const record = (await tx.get(TABLES.sites, id)) as SiteRecord;
        await tx.put(TABLES.sites, { ...record, readerKeyRotations: { share } });
      }
      await tx.delete(TABLES.settings, 'upgrade:share-keys-to-share-links');
    });
    const legacyKey = (id: string, rotation: number) => earlier.secrets.hmac(`site-reader-key\u0000share\u0000${id}\u0000${rotation}`);

    const upgraded = createPlatform({ store, signingKey: 'upgrade-test' });
    const handle = createFetchHandler(upgraded);
    const read = async (siteId: string, key: string) => (await handle(new Request(`http://docs.test/published/o/${organizationId}/${siteId}?share=${key}`))).status;
    expect(await read(shared, await legacyKey(shared, 1))).toBe(200);
    expect(await read(shared, await legacyKey(shared, 0))).toBe(404);
    const links = (siteId: string) => upgraded.as(userId).listSiteShareLinks({ organizationId, siteId });
    const [link] = (await links(shared)).items;
    expect(link).toMatchObject({ name: 'Share key', active: true, id: `${shared}-share-key` });
    expect(new URL(link.urls.published!).searchParams.get('share')).toBe(await legacyKey(shared, 1));
    expect((await links(rotated)).items.map((item) => new URL(item.urls.published!).searchParams.get('share'))).toEqual([await legacyKey(rotated, 2)]);
    expect((await links(untouched)).items).toEqual([]);

    // Revoked like any other link; a later start does not bring it back.
    await upgraded.as(userId).deleteSiteShareLink({ organizationId, siteId: shared, shareLinkId: link.id });
    expect(await read(shared, await legacyKey(shared, 1))).toBe(404);
    const later = createPlatform({ store, signingKey: 'upgrade-test' });
    expect((await later.as(userId).listSiteShareLinks({ organizationId, siteId: shared })).items).toEqual([]);
  });
});
