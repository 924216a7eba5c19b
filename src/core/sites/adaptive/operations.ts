import * as v from 'valibot';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { readOperation, writeOperation } from '../../operation.js';
import { TABLES, type SiteRecord } from '../../records.js';
import { Id, Timestamp } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { AdaptiveJsonSchema, AdaptiveJsonSchemaOutput, claimsOf } from './json-schema.js';
import { assertConditionsFit } from './site-conditions.js';

/** The site adaptive schema object of responses. */
export const AdaptiveSchemaSchema = v.object({
  object: v.literal('site-adaptive-schema'),
  jsonSchema: AdaptiveJsonSchemaOutput,
  updatedAt: Timestamp,
});

function present(site: SiteRecord, context: Context): v.InferInput<typeof AdaptiveSchemaSchema> {
  if (!site.adaptiveSchema) throw notFound(`No visitor attributes schema found for site ${site.id}; set one with PUT ${context.urls.api(`/orgs/${site.organizationId}/sites/${site.id}/adaptive-schema`)}`);
  return { object: 'site-adaptive-schema', jsonSchema: site.adaptiveSchema.jsonSchema as v.InferInput<typeof AdaptiveJsonSchemaOutput>, updatedAt: site.adaptiveSchema.updatedAt };
}

/** Gets a site's adaptive schema: 404 until one is set, as in the public API. */
export const getSiteAdaptiveSchema = readOperation({
  name: 'getSiteAdaptiveSchema',
  summary: "Get a site's adaptive schema",
  params: { organizationId: Id, siteId: Id },
  response: AdaptiveSchemaSchema,
  async run(ctx, { organizationId, siteId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'view', 'read its adaptive schema');
    return present(site, ctx);
  },
});

/**
 * Sets (creates or replaces) a site's adaptive schema; admins only. The conditions already set on the
 * site's sections and site spaces must still hold against it (400 naming the first that would not).
 */
export const updateSiteAdaptiveSchema = writeOperation({
  name: 'updateSiteAdaptiveSchema',
  summary: "Set a site's adaptive schema",
  params: { organizationId: Id, siteId: Id },
  body: { jsonSchema: AdaptiveJsonSchema },
  response: AdaptiveSchemaSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, jsonSchema }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'set its adaptive schema');
    await assertConditionsFit(ctx, site, claimsOf(jsonSchema));
    const updated: SiteRecord = { ...site, adaptiveSchema: { jsonSchema, updatedAt: ctx.now } };
    await ctx.tx.put(TABLES.sites, updated);
    return present(updated, ctx);
  },
});
