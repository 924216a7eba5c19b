import * as v from 'valibot';
import type { Context } from '../../context.js';
import { TABLES, type SiteCustomizationRecord, type SiteRecord } from '../../records.js';
import { CustomizationSettingsSchema, type CustomizationSettings } from './settings-schema.js';

/**
 * The customizations of a published site: its customization settings (`PUT …/customization`), or until
 * they are set the defaults below (docs/api-notes.md, "Sites"), the public API's: the `clean` theme and its
 * colors, rounded corners, the Inter font, English; titled after the site unless the settings give a title.
 */

const both = (color: string) => ({ light: color, dark: color });

/** The settings of a site whose settings were never set. */
export const DEFAULT_SETTINGS: CustomizationSettings = {
  styling: {
    theme: 'clean',
    primaryColor: both('#346DDB'),
    tint: { color: both('#346DDB') },
    infoColor: both('#787878'),
    successColor: both('#00C950'),
    warningColor: both('#FE9A00'),
    dangerColor: both('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: { default: { light: 'default-light', dark: 'default-dark' }, openapi: { light: 'default-light', dark: 'default-dark' } },
    sidebar: { background: 'default', list: 'default' },
    search: 'prominent',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  pageActions: { items: [] },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  trademark: { enabled: true },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

/** The customization record of a site, absent until its settings are first set. */
export const loadCustomization = (ctx: Context, site: SiteRecord) => ctx.tx.get(TABLES.siteCustomizations, site.id) as Promise<SiteCustomizationRecord | undefined>;

/** The settings of a site: the ones set, or the defaults. */
export const settingsOf = (record: SiteCustomizationRecord | undefined): CustomizationSettings => (record?.settings as CustomizationSettings | undefined) ?? DEFAULT_SETTINGS;

/** The customizations object of a published site (the public API's, `siteSpaces` empty: site spaces have none of their own). */
export const CustomizationsSchema = v.object({
  site: CustomizationSettingsSchema,
  siteSpaces: v.record(v.string(), CustomizationSettingsSchema),
});

/** The customizations of a site: its settings, titled after the site unless they give a title. */
export function customizationsOf(site: SiteRecord, record: SiteCustomizationRecord | undefined): v.InferInput<typeof CustomizationsSchema> {
  const settings = settingsOf(record);
  return {
    site: { ...structuredClone(settings), title: settings.title ?? site.title, ...(record && { updatedAt: record.updatedAt }) },
    siteSpaces: {},
  };
}
