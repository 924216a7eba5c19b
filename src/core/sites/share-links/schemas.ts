import * as v from 'valibot';
import type { Context } from '../../context.js';
import { listSchema } from '../../pagination.js';
import type { SiteRecord, SiteShareLinkRecord } from '../../records.js';
import { Timestamp, Url } from '../../schemas.js';
import { uriComponent } from '../../well-formed.js';
import { shareLinkKey } from '../reader/site-keys.js';
import { sized } from '../schemas.js';
import { siteUrl } from '../urls.js';

/** A share link's name: at most 50 characters (the public API's ShareLinkName). */
export const ShareLinkName = sized(0, 50);

/** The share link object of responses (the public API's ShareLink). */
export const ShareLinkSchema = v.object({
  object: v.literal('share-link'),
  id: v.string(),
  createdAt: Timestamp,
  name: v.optional(v.string()),
  active: v.boolean(),
  /** `published`: the site's URL with the link's key, while the site is published. */
  urls: v.object({ published: v.optional(Url) }),
});

/** A list of share links. */
export const ShareLinkList = listSchema(ShareLinkSchema);

/** The share link object of a link, with its key in its published URL. */
export async function presentShareLink(ctx: Context, site: SiteRecord, link: SiteShareLinkRecord): Promise<v.InferInput<typeof ShareLinkSchema>> {
  const published = site.published ? `${siteUrl(ctx, site)}?share=${uriComponent(await shareLinkKey(ctx, link))}` : undefined;
  return {
    object: 'share-link',
    id: link.id,
    createdAt: link.createdAt,
    ...(link.name !== undefined && { name: link.name }),
    active: link.active,
    urls: published === undefined ? {} : { published },
  };
}
