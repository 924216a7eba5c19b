import type { Context } from '../../context.js';
import { sameText } from '../../content/downloads.js';
import { TABLES, type SiteRecord, type SiteShareLinkRecord } from '../../records.js';

/**
 * The keys a site's readers use: the key of each share link (`?share=<key>`) and the private key of the
 * publishing auth, which signs visitor tokens (HS256 JWTs, `?jwt_token=`). Each is an HMAC under the
 * platform's signing key: nothing secret is stored with the site, every process derives the same key, and
 * deleting a link or counting one more regeneration voids the old key at once.
 */

/** The length of an HMAC as Secrets.hmac gives it: 32 bytes in unpadded base64url. */
const MAC_LENGTH = 43;

/** The id of the share link an earlier version's share key became (upgrade.ts): one per site. */
export const legacyShareLinkId = (siteId: string) => `${siteId}-share-key`;

/** The key of an earlier version's share key, as it was derived then (a count of rotations). */
const legacyKey = (ctx: Pick<Context, 'secrets'>, siteId: string, rotation: number) => ctx.secrets.hmac(`site-reader-key\u0000share\u0000${siteId}\u0000${rotation}`);

/** The key of a share link: its HMAC, then its id, so that a key names its link. */
export async function shareLinkKey(ctx: Pick<Context, 'secrets'>, link: SiteShareLinkRecord): Promise<string> {
  if (link.legacyRotation !== undefined) return legacyKey(ctx, link.siteId, link.legacyRotation);
  return (await ctx.secrets.hmac(`site-share-link\u0000${link.siteId}\u0000${link.id}`)) + link.id;
}

/** The active share link of a site whose key this is; undefined for any other key. */
export async function shareLinkOfKey(ctx: Context, site: SiteRecord, key: string): Promise<SiteShareLinkRecord | undefined> {
  if (key.length < MAC_LENGTH) return undefined;
  const id = key.length === MAC_LENGTH ? legacyShareLinkId(site.id) : key.slice(MAC_LENGTH);
  const link = (await ctx.tx.get(TABLES.siteShareLinks, id)) as SiteShareLinkRecord | undefined;
  if (!link || link.siteId !== site.id || !link.active) return undefined;
  return sameText(key, await shareLinkKey(ctx, link)) ? link : undefined;
}

/** The private key of a site's publishing auth: what signs its visitors' tokens. */
export function publishingKey(ctx: Pick<Context, 'secrets'>, site: SiteRecord): Promise<string> {
  const rotation = site.readerKeyRotations?.visitorAuth ?? 0;
  return ctx.secrets.hmac(`site-reader-key\u0000visitorAuth\u0000${site.id}\u0000${rotation}`);
}
