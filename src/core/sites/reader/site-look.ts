import type { Context } from '../../context.js';
import { isOpenableUrl } from '../../content/openable-url.js';
import { loadRevision } from '../../content/revision.js';
import { uriComponent } from '../../well-formed.js';
import { conditionHolds, type VisitorClaims } from '../adaptive/evaluate.js';
import type { ContentRefValue, CustomizationSettings } from '../customization/settings-schema.js';
import { emojiCharacters } from './emoji.js';
import { navigationOf } from './navigation.js';
import type { HeaderItem, LookLink, SiteLook } from './view.js';
import type { VisibleSiteSpace, VisibleStructure } from './visible-structure.js';

/**
 * The look of a site for one visitor, from its customization settings: what styles it, and the header,
 * announcement and footer links, each resolved to the URL it leads to for this visitor. A link to a page or
 * a space leads to its place on this site (its current revision); one to a URL, to that URL when a reader
 * may follow it; anything else (a file, a user, a collection, a page that is not on the site) is left out.
 */

/** Where a look is made: the site as the visitor sees it (absent: nothing of it can be linked), and the current site space. */
export interface LookPlace {
  readonly visible?: VisibleStructure;
  readonly current?: VisibleSiteSpace;
  readonly claims: VisitorClaims;
}

/** The site space that shows a space on the site: the current one when it does, else the first in published order. */
function siteSpaceOf(place: LookPlace, spaceId: string): VisibleSiteSpace | undefined {
  if (place.current?.space.id === spaceId) return place.current;
  return place.visible?.all.find((item) => item.space.id === spaceId);
}

/** Where a link leads for this visitor, or undefined when it leads nowhere a reader may go. */
async function urlOf(ctx: Context, ref: ContentRefValue, place: LookPlace): Promise<string | undefined> {
  switch (ref.kind) {
    case 'url':
      return isOpenableUrl(ref.url) ? ref.url : undefined;
    case 'space':
      return siteSpaceOf(place, ref.space)?.url;
    case 'page':
    case 'anchor': {
      // Without a space, the page is in the current one (the public API's ContentRef).
      const spaceId = ref.space ?? place.current?.space.id;
      const siteSpace = spaceId === undefined ? undefined : siteSpaceOf(place, spaceId);
      if (!siteSpace || ref.page === undefined) return undefined;
      const navigation = await navigationOf(ctx, await loadRevision(ctx.tx, siteSpace.space.revision), siteSpace.address);
      const url = navigation.urls.get(ref.page);
      return url === undefined || ref.kind === 'page' ? url : `${url}#${uriComponent(ref.anchor)}`;
    }
    default:
      return undefined;
  }
}

/** The links that lead somewhere, in order. */
async function linksOf(ctx: Context, links: readonly { title: string; to: ContentRefValue }[], place: LookPlace): Promise<LookLink[]> {
  const out: LookLink[] = [];
  for (const link of links) {
    const url = await urlOf(ctx, link.to, place);
    if (url !== undefined) out.push({ title: link.title, url });
  }
  return out;
}

/** The header's items the visitor is shown: whose condition holds, and that lead somewhere or hold a link. */
async function headerOf(ctx: Context, settings: CustomizationSettings, place: LookPlace): Promise<HeaderItem[]> {
  const items: HeaderItem[] = [];
  for (const item of settings.header.links) {
    if (item.condition && !conditionHolds(item.condition, place.claims)) continue;
    const url = item.to ? await urlOf(ctx, item.to, place) : undefined;
    const links = await linksOf(ctx, item.links, place);
    if (url === undefined && links.length === 0) continue;
    items.push({ title: item.title, ...(url !== undefined && { url }), style: item.style ?? 'link', links });
  }
  return items;
}

/** The look of a site for a visitor at a place of it. */
export async function lookOf(ctx: Context, settings: CustomizationSettings, place: LookPlace): Promise<SiteLook> {
  const { favicon, announcement, footer } = settings;
  const link = announcement?.link && (await linksOf(ctx, [announcement.link], place))[0];
  const groups = [];
  for (const group of footer.groups) {
    const links = await linksOf(ctx, group.links, place);
    if (links.length > 0) groups.push({ title: group.title, links });
  }
  return {
    styling: settings.styling,
    mode: settings.themes.default,
    ...('icon' in favicon && { favicon: favicon.icon }),
    ...('emoji' in favicon && { favicon: { emoji: emojiCharacters(favicon.emoji) } }),
    ...(settings.header.logo && { logo: settings.header.logo }),
    header: await headerOf(ctx, settings, place),
    ...(announcement?.enabled && { announcement: { message: announcement.message, style: announcement.style, ...(link && { link }) } }),
    footer: {
      groups,
      ...(footer.copyright && { copyright: footer.copyright }),
      ...(settings.privacyPolicy.url !== undefined && { privacyPolicy: settings.privacyPolicy.url }),
    },
    pagination: settings.pagination.enabled,
    ...(settings.socialPreview.url !== undefined && { socialPreview: settings.socialPreview.url }),
  };
}
