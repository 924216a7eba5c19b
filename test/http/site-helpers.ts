import { expect } from 'vitest';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { contentHelpers } from './content.js';
import type { Caller, Harness, TestResponse } from './harness.js';

/** Helpers for the site suites: create sites and their parts, read their structure, and what the store holds. */

/** Every field of a site response for a new, unpublished site with no hostname, basename or proxy. */
export const SITE_KEYS = ['adaptiveContent', 'ads', 'createdAt', 'features', 'id', 'object', 'published', 'siteSpaces', 'title', 'type', 'urls', 'visibility'];

/** Every field of a site space response without a condition, in a section. */
export const SITE_SPACE_KEYS = ['default', 'id', 'object', 'path', 'section', 'space', 'title', 'urls'];

/** Every field of a section response without description, condition, group or icon. */
export const SECTION_KEYS = ['default', 'id', 'object', 'path', 'siteSpaces', 'title', 'urls'];

/** An adaptive schema with signed claims `isBeta`, `isStaff` and the unsigned claim `fromCampaign`. */
export const BETA_SCHEMA = {
  type: 'object',
  properties: {
    isBeta: { type: 'boolean', description: 'Whether the visitor is a beta user.' },
    isStaff: { type: 'boolean', description: 'Whether the visitor works here.' },
    unsigned: {
      type: 'object',
      properties: { fromCampaign: { type: 'boolean', description: 'Came through a campaign link.' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

const both = (color: string) => ({ light: color, dark: color });

/** The customization settings of a site whose settings were never set, as `GET …/customization` gives them. */
export const DEFAULT_CUSTOMIZATION = {
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

/** Site helpers bound to a harness. */
export function siteHelpers(h: () => Harness) {
  const content = contentHelpers(h);
  const sites = (organizationId = h().organizationId) => `/v1/orgs/${organizationId}/sites`;
  const site = (siteId: string, organizationId = h().organizationId) => `${sites(organizationId)}/${siteId}`;

  /** Expects a status and returns the body. */
  function ok(response: TestResponse, status = 200) {
    expect(response.status, response.text).toBe(status);
    return response.body;
  }

  /** Creates a site (as the owner unless told), one second after the previous request. */
  async function createSite(body: Record<string, unknown> = {}, caller: Caller = h().owner, organizationId = h().organizationId) {
    h().clock.advance(1000);
    return ok(await caller.post(sites(organizationId), body), 201) as Record<string, any> & { id: string };
  }

  /** Creates spaces with these titles and returns their ids. */
  async function spaces(...titles: string[]) {
    const ids: string[] = [];
    for (const title of titles) ids.push((await content.space({ title })).id);
    return ids;
  }

  /** Adds a section with a space (as the owner) and returns it. */
  async function addSection(siteId: string, spaceId: string, title?: string) {
    return ok(await h().owner.post(`${site(siteId)}/sections`, title === undefined ? { spaceId } : { spaceId, title }), 201);
  }

  /** Adds a space to a site (as the owner) and returns the site space. */
  async function addSiteSpace(siteId: string, spaceId: string, sectionId?: string) {
    return ok(await h().owner.post(`${site(siteId)}/site-spaces`, sectionId === undefined ? { spaceId } : { spaceId, sectionId }), 201);
  }

  /** Adds a section group (as the owner) and returns it. */
  async function addGroup(siteId: string, body: Record<string, unknown>) {
    return ok(await h().owner.post(`${site(siteId)}/section-groups`, body), 201);
  }

  /** The published site, read by the owner. */
  async function published(siteId: string, query = '') {
    return ok(await h().owner.get(`${site(siteId)}/published${query}`));
  }

  /**
   * The structure of a site in a compact form: for a site with sections, each top-level entry as
   * `section:<id>` with its site spaces or `group:<id>` with its sections; `*` marks defaults.
   */
  async function outline(siteId: string): Promise<unknown[]> {
    const { structure } = await published(siteId);
    const spacesOf = (section: any) => section.siteSpaces.map((item: any) => `${item.id}${item.default ? '*' : ''}`);
    const sectionOf = (section: any) => ({ [`section:${section.id}${section.default ? '*' : ''}`]: spacesOf(section) });
    if (structure.type === 'siteSpaces') return structure.structure.map((item: any) => `${item.id}${item.default ? '*' : ''}`);
    return structure.structure.map((entry: any) =>
      entry.object === 'site-section-group' ? { [`group:${entry.id}`]: entry.sections.map(sectionOf) } : sectionOf(entry),
    );
  }

  /**
   * Everything the store holds for the sites of some organizations (sites, sections, groups, site
   * spaces, share links, redirects, customizations), with the organizations' records and their content: compared before and after a refused
   * request to show that nothing changed.
   */
  async function stored(organizationIds: string[] = [h().organizationId]) {
    const sitesState = await h().platform.store.read(async (tx) => {
      const state: Record<string, unknown[]> = { organizations: [], sites: [], parts: [] };
      for (const organizationId of organizationIds) {
        state.organizations.push(await tx.get(TABLES.organizations, organizationId));
        const { items } = await tx.list(TABLES.sites, { index: INDEXES.sitesByOrganization, value: organizationId });
        state.sites.push(...items);
        for (const record of items) {
          for (const [table, index] of [
            [TABLES.siteSections, INDEXES.siteSectionsBySite],
            [TABLES.siteSectionGroups, INDEXES.siteSectionGroupsBySite],
            [TABLES.siteSpaces, INDEXES.siteSpacesBySite],
            [TABLES.siteShareLinks, INDEXES.siteShareLinksBySite],
            [TABLES.siteRedirects, INDEXES.siteRedirectsBySite],
          ] as const) {
            state.parts.push(...(await tx.list(table, { index, value: record.id })).items);
          }
          const customization = await tx.get(TABLES.siteCustomizations, record.id);
          if (customization) state.parts.push(customization);
        }
      }
      return JSON.parse(JSON.stringify(state)) as typeof state;
    });
    return { ...sitesState, content: await content.stored(organizationIds) };
  }

  /** Sets the adaptive schema of a site (as the owner). */
  async function setSchema(siteId: string, jsonSchema: unknown = BETA_SCHEMA) {
    return ok(await h().owner.put(`${site(siteId)}/adaptive-schema`, { jsonSchema }));
  }

  /** Replaces a site's customization settings (as the owner) with the defaults changed by `change`; returns the response. */
  async function customize(siteId: string, change: (settings: any) => void) {
    const settings = structuredClone(DEFAULT_CUSTOMIZATION) as any;
    change(settings);
    return ok(await h().owner.put(`${site(siteId)}/customization`, settings));
  }

  return { ...content, customize, sites, site, ok, createSite, spaces, addSection, addSiteSpace, addGroup, published, outline, stored, setSchema };
}
