import { jwtVerify } from 'jose';
import type { Context } from '../../context.js';
import { INDEXES, TABLES, type SiteRecord } from '../../records.js';
import { claimsOf } from '../adaptive/json-schema.js';
import { NO_CLAIMS, type VisitorClaims } from '../adaptive/evaluate.js';
import { publishingKey, shareLinkOfKey } from './site-keys.js';
import type { Admitted, ReaderRequest, SiteRef } from './view.js';

/**
 * Who may read a published site (Part 3's visibility): nobody while it is unpublished; anyone when it is
 * `public` or `unlisted`; holders of the key of one of its active share links when it is `share-link`;
 * holders of a visitor token signed with its publishing auth's private key when it is `visitor-auth`. On any site a valid visitor token brings signed claims,
 * and the query unsigned ones, for adaptive content.
 */

/** What admission decided. */
export type Admission =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unauthorized' }
  | { readonly kind: 'admitted'; readonly claims: VisitorClaims; readonly admitted: Admitted };

/**
 * The site a request names: of an organization by its basename, or by its id when it has none; or the site
 * whose custom hostname the request came to. Undefined when there is none.
 */
export async function findSite(ctx: Context, ref: SiteRef): Promise<SiteRecord | undefined> {
  if ('hostname' in ref) {
    const { items } = await ctx.tx.list(TABLES.sites, { index: INDEXES.sitesByHostname, value: ref.hostname, limit: 1 });
    return items[0] as SiteRecord | undefined;
  }
  const byId = (await ctx.tx.get(TABLES.sites, ref.name)) as SiteRecord | undefined;
  if (byId && byId.organizationId === ref.organizationId && byId.basename === undefined) return byId;
  const { items } = await ctx.tx.list(TABLES.sites, { index: INDEXES.sitesByOrganization, value: ref.organizationId });
  return (items as SiteRecord[]).find((site) => site.basename === ref.name);
}

/**
 * The longest a visitor token may stay valid: 30 days from now, at most, by its `exp`. A token without one
 * would open a `visitor-auth` site (and keep its cookie working) for ever, whoever copied it.
 */
export const MAX_VISITOR_TOKEN_SECONDS = 30 * 24 * 60 * 60;

/**
 * The signed claims of a visitor token verified with the site's key: its boolean fields; undefined when it
 * is not valid: of another key or algorithm, expired, without an `exp`, or with one past MAX_VISITOR_TOKEN_SECONDS.
 */
async function verifiedClaims(ctx: Context, site: SiteRecord, token: string): Promise<Record<string, boolean> | undefined> {
  try {
    const key = new TextEncoder().encode(await publishingKey(ctx, site));
    const now = new Date(ctx.now);
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp'] });
    if (payload.exp! > now.getTime() / 1000 + MAX_VISITOR_TOKEN_SECONDS) return undefined;
    const claims: Record<string, boolean> = {};
    for (const [name, value] of Object.entries(payload)) if (typeof value === 'boolean') claims[name] = value;
    return claims;
  } catch {
    return undefined;
  }
}

/** The unsigned claims of the query that the site's adaptive schema defines. */
function unsignedClaims(site: SiteRecord, given: ReaderRequest['unsigned']): Record<string, boolean> {
  const defined = claimsOf(site.adaptiveSchema?.jsonSchema).unsigned;
  const claims: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(given)) if (defined.has(name) && typeof value === 'boolean') claims[name] = value;
  return claims;
}

/** Decides whether a visitor may read a site, and with which claims. */
export async function admit(ctx: Context, site: SiteRecord, request: ReaderRequest): Promise<Admission> {
  if (!site.published) return { kind: 'missing' };
  let share: string | undefined;
  if (site.visibility === 'share-link') {
    if (request.share === undefined || !(await shareLinkOfKey(ctx, site, request.share))) return { kind: 'missing' };
    share = request.share;
  }
  const signed = request.visitorToken === undefined ? undefined : await verifiedClaims(ctx, site, request.visitorToken);
  if (site.visibility === 'visitor-auth' && signed === undefined) return { kind: 'unauthorized' };
  const unsigned = unsignedClaims(site, request.unsigned);
  const claims = signed === undefined && Object.keys(unsigned).length === 0 ? NO_CLAIMS : { signed: signed ?? {}, unsigned };
  return { kind: 'admitted', claims, admitted: { ...(share !== undefined && { share }), ...(signed !== undefined && { visitorToken: request.visitorToken }) } };
}
