import * as v from 'valibot';
import { readOperation, writeOperation } from '../../operation.js';
import { TABLES, type SiteCustomizationRecord } from '../../records.js';
import { Id, QueryBoolean } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { loadCustomization, settingsOf } from './customizations.js';
import { CustomizationSettingsInput, CustomizationSettingsSchema } from './settings-schema.js';

/**
 * A site's customization settings (the public API's `…/customization`): its look, header, footer and
 * locale, which the reader applies (docs/published-sites.md says which fields it shows). Members with a
 * role read them; admins replace them, as they change the site's other settings.
 */

const params = { organizationId: Id, siteId: Id };

function present(record: SiteCustomizationRecord | undefined): v.InferInput<typeof CustomizationSettingsSchema> {
  return { ...structuredClone(settingsOf(record)), ...(record && { updatedAt: record.updatedAt }) };
}

/** Gets a site's customization settings: the defaults, without `updatedAt`, until they are set. */
export const getSiteCustomization = readOperation({
  name: 'getSiteCustomization',
  summary: "Get a site's customization settings",
  params,
  // The public API's deprecated `unmasked`: every setting is shown here, so it changes nothing.
  query: { unmasked: v.optional(QueryBoolean) },
  response: CustomizationSettingsSchema,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'view', 'read its customization');
    return present(await loadCustomization(ctx, site));
  },
});

/** Replaces a site's customization settings with the whole object given (fields left out take no default but their absence). */
export const updateSiteCustomization = writeOperation({
  name: 'updateSiteCustomization',
  summary: "Replace a site's customization settings",
  params,
  body: CustomizationSettingsInput.entries,
  response: CustomizationSettingsSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, ...settings }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'customize it');
    const record: SiteCustomizationRecord = { id: site.id, organizationId: site.organizationId, settings, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.siteCustomizations, record);
    return present(record);
  },
});
