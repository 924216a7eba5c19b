import * as v from 'valibot';
import type { WriteContext } from '../../context.js';
import { badRequest, conflict } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { REMOVE, applyPatch } from '../../patch.js';
import { INDEXES, TABLES, type SiteRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { pointLevelDefault } from '../defaults.js';
import { Hostname, ProxyOrigin, SitePath, SiteTitle, SiteVisibilitySchema } from '../schemas.js';
import { loadStructure, type SiteStructure } from '../structure.js';
import { presentSite } from './present.js';
import { SiteSchema } from './schemas.js';
import { HOSTNAMES_SCOPE, exclusive, organizationScope } from '../../scopes.js';

/** Custom hostnames are unique across sites: a hostname serves one site. */
async function assertHostnameFree(ctx: WriteContext, site: SiteRecord, hostname: string) {
  await ctx.tx.lock(HOSTNAMES_SCOPE, 'exclusive');
  const { items } = await ctx.tx.list(TABLES.sites, { index: INDEXES.sitesByHostname, value: hostname, where: (other) => other.id !== site.id });
  if (items.length > 0) throw conflict(`hostname: ${hostname} is already the hostname of another site`);
}

/** Basenames are unique within an organization: the default URL of a site is made of it. */
async function assertBasenameFree(ctx: WriteContext, site: SiteRecord, basename: string) {
  await ctx.tx.lock(organizationScope(site.organizationId), 'exclusive');
  const { count } = await ctx.tx.list(TABLES.sites, {
    index: INDEXES.sitesByOrganization,
    value: site.organizationId,
    limit: 0,
    where: (other) => other.id !== site.id && other.basename === basename,
  });
  if (count > 0) throw conflict(`basename: ${basename} is already the basename of another site of the organization`);
}

/** The section a `defaultSiteSection` names: one of the site's sections (400). */
function checkDefaultSection(structure: SiteStructure, sectionId: string): string {
  if (structure.sections.length === 0) throw badRequest(`defaultSiteSection: site ${structure.site.id} has no sections`);
  if (!structure.sections.some((node) => node.section.id === sectionId)) {
    throw badRequest(`defaultSiteSection: no section ${sectionId} in site ${structure.site.id}`);
  }
  return sectionId;
}

/**
 * The level a `defaultSiteSpace` is for, checked: the root of a site without sections, else its default
 * section (the one this request makes default, if it does). 400 when the site space is not there.
 */
function checkDefaultSiteSpace(structure: SiteStructure, siteSpaceId: string, defaultSection: string | undefined): string | undefined {
  const hasSections = structure.sections.length > 0;
  const sectionId = hasSections ? (defaultSection ?? structure.defaultSectionId) : undefined;
  const placed = structure.siteSpaces.find((item) => item.record.id === siteSpaceId);
  if (!placed || placed.record.sectionId !== sectionId) {
    const where = sectionId === undefined ? `the root of site ${structure.site.id}` : `the default section ${sectionId} of site ${structure.site.id}`;
    throw badRequest(`defaultSiteSpace: no site space ${siteSpaceId} in ${where}`);
  }
  return sectionId;
}

/**
 * Updates a site's settings; admins only. Absent fields stay as they are; `proxy: null` and
 * `hostname: null` remove them. `defaultSiteSpace` is the default of the root level, or of the default
 * section when the site has sections; `defaultSiteSection` chooses the default section. Custom
 * hostnames are unique across sites, basenames within the organization (409).
 */
export const updateSite = writeOperation({
  name: 'updateSite',
  summary: 'Update a site',
  params: { organizationId: Id, siteId: Id },
  body: {
    title: v.optional(SiteTitle),
    visibility: v.optional(SiteVisibilitySchema),
    basename: v.optional(SitePath),
    adaptiveContent: v.optional(v.object({ enabled: v.boolean() })),
    defaultSiteSpace: v.optional(Id),
    defaultSiteSection: v.optional(Id),
    proxy: v.optional(v.nullable(ProxyOrigin)),
    // Not in the PATCH body of the specification: the one place a site's custom hostname is set.
    hostname: v.optional(v.nullable(Hostname)),
  },
  response: SiteSchema,
  // The site's (requireSite), and those a hostname or a basename asked for may need (assertHostnameFree, assertBasenameFree).
  locks: ({ organizationId, siteId, hostname, basename }) => [
    ...locksSite({ siteId }),
    ...(typeof hostname === 'string' ? [exclusive(HOSTNAMES_SCOPE)] : []),
    ...(basename === undefined ? [] : [exclusive(organizationScope(organizationId))]),
  ],
  async run(ctx, input) {
    const { organizationId, siteId, defaultSiteSpace, defaultSiteSection, proxy, hostname } = input;
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'change its settings');
    if (typeof hostname === 'string' && hostname !== site.hostname) await assertHostnameFree(ctx, site, hostname);
    if (input.basename !== undefined && input.basename !== site.basename) await assertBasenameFree(ctx, site, input.basename);
    const structure = await loadStructure(ctx.tx, site);
    const defaultSection = defaultSiteSection === undefined ? undefined : checkDefaultSection(structure, defaultSiteSection);
    const level = defaultSiteSpace === undefined ? undefined : { sectionId: checkDefaultSiteSpace(structure, defaultSiteSpace, defaultSection) };
    const updated = applyPatch(site, {
      title: input.title,
      visibility: input.visibility,
      basename: input.basename,
      adaptiveContent: input.adaptiveContent?.enabled,
      proxy: proxy === null ? REMOVE : proxy,
      hostname: hostname === null ? REMOVE : hostname,
      defaultSectionId: defaultSection,
    });
    if (updated !== site) await ctx.tx.put(TABLES.sites, updated);
    if (level) await pointLevelDefault(ctx, site.id, level.sectionId, defaultSiteSpace);
    return presentSite(ctx, (await ctx.tx.get(TABLES.sites, site.id)) as SiteRecord);
  },
});
