import * as v from 'valibot';
import { readOperation } from '../../operation.js';
import { loadCustomization, settingsOf } from '../customization/customizations.js';
import { findSite } from './admission.js';
import { emojiCharacters } from './emoji.js';
import { SiteName } from './sitemap.js';
import type { ReaderAnswer } from './view.js';

/** The segment of a site's favicon, under its URL (and so at `/favicon.ico` of its hostname, where browsers look for it). */
export const FAVICON_SEGMENT = 'favicon.ico';

/**
 * The favicon of a published site: its customization's, for a site anyone may read of (public or unlisted);
 * the default (no `favicon`) for any other, known or not, so that the answer tells nothing of a share-link
 * or visitor-auth site to a visitor who may not know it is there (its pages link their own icon anyway).
 */
export const readPublishedFavicon = readOperation({
  name: 'readPublishedFavicon',
  summary: 'Read the favicon of a published site',
  body: { site: SiteName },
  response: v.custom<ReaderAnswer>(() => true),
  async run(ctx, { site: name }): Promise<ReaderAnswer> {
    const site = await findSite(ctx, name);
    if (!site || !site.published || (site.visibility !== 'public' && site.visibility !== 'unlisted')) return { kind: 'favicon' };
    const { favicon } = settingsOf(await loadCustomization(ctx, site));
    if ('icon' in favicon) return { kind: 'favicon', favicon: favicon.icon };
    if ('emoji' in favicon) return { kind: 'favicon', favicon: { emoji: emojiCharacters(favicon.emoji) } };
    return { kind: 'favicon' };
  },
});
