import * as v from 'valibot';
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import { readOperation, writeOperation } from '../../operation.js';
import { TABLES, type SiteRecord } from '../../records.js';
import { HttpUrl, Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { publishingKey } from '../reader/site-keys.js';

/**
 * The publishing auth of a site (the public API's `…/publishing/auth`): how visitors of a `visitor-auth`
 * site authenticate. Their tokens are HS256 JWTs signed with `privateKey`; a visitor without a valid one is
 * sent to `fallbackURL` (with `location`, the path asked for), or shown a 401 page without one. Admins read
 * and change it (the public API's `site:auth` scopes): the key lets its holder into the site.
 */

/** The publishing auth object of responses (the public API's SitePublishingAuth, custom backend). */
export const PublishingAuthSchema = v.object({
  object: v.literal('publishing-auth'),
  backend: v.literal('custom'),
  privateKey: v.string(),
  fallbackURL: v.optional(v.string()),
  logoutURL: v.optional(v.string()),
});

const DOING = "manage its visitors' authentication";

const params = { organizationId: Id, siteId: Id };

async function present(ctx: Context, site: SiteRecord): Promise<v.InferInput<typeof PublishingAuthSchema>> {
  const auth = site.publishingAuth;
  return {
    object: 'publishing-auth',
    backend: 'custom',
    privateKey: await publishingKey(ctx, site),
    ...(auth?.fallbackURL !== undefined && { fallbackURL: auth.fallbackURL }),
    ...(auth?.logoutURL !== undefined && { logoutURL: auth.logoutURL }),
  };
}

/** Gets a site's publishing auth, with the private key that signs its visitors' tokens. */
export const getSitePublishingAuth = readOperation({
  name: 'getSitePublishingAuth',
  summary: "Get the authentication of a site's visitors",
  params,
  response: PublishingAuthSchema,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    return present(ctx, site);
  },
});

/**
 * Changes a site's publishing auth. `backend` must be `custom`: docs-platform has no integrations to
 * authenticate visitors. An absent URL stays as it is, `null` removes it.
 */
export const updateSitePublishingAuth = writeOperation({
  name: 'updateSitePublishingAuth',
  summary: "Update the authentication of a site's visitors",
  params,
  body: {
    backend: v.picklist(['custom', 'integration']),
    fallbackURL: v.optional(v.nullable(HttpUrl)),
    logoutURL: v.optional(v.nullable(HttpUrl)),
  },
  response: PublishingAuthSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, backend, fallbackURL, logoutURL }) {
    if (backend === 'integration') throw badRequest('backend: docs-platform has no integrations to authenticate visitors with; use custom');
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    // Absent: as it was; null: none.
    const kept = (given: string | null | undefined, was: string | undefined) => (given === undefined ? was : (given ?? undefined));
    const fallback = kept(fallbackURL, site.publishingAuth?.fallbackURL);
    const logout = kept(logoutURL, site.publishingAuth?.logoutURL);
    const publishingAuth = { backend, ...(fallback !== undefined && { fallbackURL: fallback }), ...(logout !== undefined && { logoutURL: logout }) };
    const updated: SiteRecord = { ...site, publishingAuth };
    await ctx.tx.put(TABLES.sites, updated);
    return present(ctx, updated);
  },
});

/** Makes a new private key: visitor tokens signed with the old one no longer open the site. */
export const regenerateSitePublishingAuth = writeOperation({
  name: 'regenerateSitePublishingAuth',
  summary: "Regenerate the private key that signs a site's visitor tokens",
  params,
  response: PublishingAuthSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', DOING);
    const rotations = site.readerKeyRotations ?? {};
    const updated: SiteRecord = { ...site, readerKeyRotations: { ...rotations, visitorAuth: (rotations.visitorAuth ?? 0) + 1 } };
    await ctx.tx.put(TABLES.sites, updated);
    return present(ctx, updated);
  },
});
