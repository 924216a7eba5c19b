import * as v from 'valibot';
import type { Context } from '../../context.js';
import { readOperation, writeOperation } from '../../operation.js';
import { TABLES, type SiteRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { requireSite } from '../access.js';

/**
 * The keys a site's readers use: the share key of a `share-link` site (`?share=<key>`), and the key that
 * signs the visitor tokens of a `visitor-auth` site (HS256 JWTs, `?jwt_token=`). The specification does not
 * say where they come from, so admins read and rotate them through two extension routes. Each is an HMAC of
 * the site's id and its rotation count under the platform's signing key: nothing secret is stored with the
 * site, every process derives the same key, and a rotation (a count + 1) voids the old key at once.
 */

/** The two keys of a site. */
export type ReaderKeyName = 'share' | 'visitorAuth';

/** The key of a site, as it is now. */
export async function readerKey(ctx: Pick<Context, 'secrets'>, site: SiteRecord, name: ReaderKeyName): Promise<string> {
  const rotation = site.readerKeyRotations?.[name] ?? 0;
  return ctx.secrets.hmac(`site-reader-key\u0000${name}\u0000${site.id}\u0000${rotation}`);
}

/** The reader keys object of responses. */
export const ReaderKeysSchema = v.object({
  object: v.literal('site-reader-keys'),
  /** Readers of a share-link site open it with `?share=<shareKey>`. */
  shareKey: v.string(),
  /** The HS256 key that signs visitor tokens (`?jwt_token=`) of a visitor-auth site, and the claims of adaptive content. */
  visitorAuthKey: v.string(),
});

async function presentKeys(ctx: Context, site: SiteRecord): Promise<v.InferInput<typeof ReaderKeysSchema>> {
  return { object: 'site-reader-keys', shareKey: await readerKey(ctx, site, 'share'), visitorAuthKey: await readerKey(ctx, site, 'visitorAuth') };
}

/** Gets the keys of a site's readers (admins only). */
export const getSiteReaderKeys = readOperation({
  name: 'getSiteReaderKeys',
  summary: "Get the keys of a site's readers: its share key and its visitor token key",
  params: { organizationId: Id, siteId: Id },
  response: ReaderKeysSchema,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'read its reader keys');
    return presentKeys(ctx, site);
  },
});

/** Rotates one key of a site's readers (admins only): links and tokens made with the old key stop working. */
export const rotateSiteReaderKey = writeOperation({
  name: 'rotateSiteReaderKey',
  summary: "Rotate a key of a site's readers",
  params: { organizationId: Id, siteId: Id },
  body: { key: v.picklist(['share', 'visitorAuth'], 'must be share or visitorAuth') },
  response: ReaderKeysSchema,
  async run(ctx, { organizationId, siteId, key }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'rotate its reader keys');
    const rotations = site.readerKeyRotations ?? {};
    const updated: SiteRecord = { ...site, readerKeyRotations: { ...rotations, [key]: (rotations[key] ?? 0) + 1 } };
    await ctx.tx.put(TABLES.sites, updated);
    return presentKeys(ctx, updated);
  },
});
