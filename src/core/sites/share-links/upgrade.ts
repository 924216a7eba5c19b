import type { Store } from '../../../store/types.js';
import type { Clock } from '../../clock.js';
import { INDEXES, TABLES, type SiteRecord, type SiteShareLinkRecord } from '../../records.js';
import { legacyShareLinkId } from '../reader/site-keys.js';

/** The setting that says the upgrade ran, with when. */
const DONE = 'upgrade:share-keys-to-share-links';

/**
 * Earlier versions gave each site one share key, read and rotated through `…/reader-keys` (a route now
 * gone). The upgrade makes it a share link named "Share key", with the same key (its rotation count is kept
 * on the link), for every site that is `share-link` or whose key was rotated: links already handed out keep
 * working, and are listed and revoked like any other. It runs once per store, when a platform opens it;
 * processes that start together agree, as the setting that records it is inserted in the same transaction.
 */
export async function upgradeShareKeys(store: Store, clock: Clock): Promise<void> {
  if (await store.read(async (tx) => (await tx.get(TABLES.settings, DONE)) !== undefined)) return;
  await store.write(async (tx) => {
    if (await tx.get(TABLES.settings, DONE)) return;
    const { items } = await tx.list(TABLES.sites, { index: INDEXES.everySite, value: null });
    for (const site of items as SiteRecord[]) {
      const rotation = site.readerKeyRotations?.share;
      if (site.visibility !== 'share-link' && rotation === undefined) continue;
      const link: SiteShareLinkRecord = {
        id: legacyShareLinkId(site.id),
        siteId: site.id,
        organizationId: site.organizationId,
        name: 'Share key',
        active: true,
        legacyRotation: rotation ?? 0,
        createdAt: site.createdAt,
      };
      await tx.put(TABLES.siteShareLinks, link);
    }
    await tx.insert(TABLES.settings, { id: DONE, value: clock.now().toISOString() });
  });
}
