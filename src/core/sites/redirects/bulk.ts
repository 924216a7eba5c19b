import * as v from 'valibot';
import type { WriteContext } from '../../context.js';
import { ApiError, badRequest } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { TABLES, type SiteRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { locksSite, requireSite } from '../access.js';
import { checkDestination } from './destination.js';
import { saveRedirect } from './operations.js';
import { BulkResultSchema, DestinationInput, SourcePath } from './schemas.js';
import { redirectFrom, redirectRecord } from './stored.js';

/**
 * Creates, updates, deletes and publishes up to 500 redirects of a site in one request (the public API's
 * bulk upsert). Each is found by its source and intent: `live` (the default) or `draft` creates or updates
 * the redirect from that source (or deletes it, with `destination: null`); `publish` makes the draft one
 * live, in place of the live one if there is one. Each is done on its own, in order, and answered with its
 * result; one that cannot be done (a destination the site does not have, nothing to delete or publish) is
 * an `error` result and changes nothing, while the others are done.
 */

/** One redirect of a bulk request (the public API's two forms, in one object: `publish` takes no destination). */
const BulkItem = v.object({
  source: SourcePath,
  intent: v.optional(v.picklist(['live', 'draft', 'publish']), 'live'),
  captureWildcard: v.optional(v.boolean()),
  permanent: v.optional(v.boolean()),
  destination: v.optional(v.nullable(DestinationInput)),
});

type Item = v.InferOutput<typeof BulkItem>;
type Result = v.InferInput<typeof BulkResultSchema>;

/** Makes a site's draft redirect from a source live: it takes the place of the live one from that source, if any. */
async function publish(ctx: WriteContext, site: SiteRecord, source: string): Promise<Result> {
  const draft = await redirectFrom(ctx.tx, site.id, true, source);
  if (!draft) throw badRequest(`there is no draft redirect from ${source} to publish`);
  const live = await redirectFrom(ctx.tx, site.id, false, source);
  const { captureWildcard, permanent, destination } = draft;
  if (!live) return { status: 'published', source, draft: false, id: (await saveRedirect(ctx, draft, { draft: false })).id };
  await ctx.tx.delete(TABLES.siteRedirects, draft.id);
  return { status: 'published', source, draft: false, id: (await saveRedirect(ctx, live, { captureWildcard, permanent, destination })).id };
}

/** Creates, updates or deletes the live or draft redirect from an item's source. */
async function upsert(ctx: WriteContext, site: SiteRecord, item: Item): Promise<Result> {
  const { source } = item;
  const draft = item.intent === 'draft';
  const existing = await redirectFrom(ctx.tx, site.id, draft, source);
  if (item.destination === null) {
    if (!existing) throw badRequest(`there is no ${draft ? 'draft' : 'live'} redirect from ${source} to delete`);
    await ctx.tx.delete(TABLES.siteRedirects, existing.id);
    return { status: 'deleted', source, draft };
  }
  const destination = await checkDestination(ctx, site, item.destination!);
  const captureWildcard = item.captureWildcard ?? false;
  if (existing) return { status: 'updated', source, draft, id: (await saveRedirect(ctx, existing, { destination, captureWildcard, permanent: item.permanent })).id };
  const record = redirectRecord({ id: ctx.ids.id(), siteId: site.id, organizationId: site.organizationId, source, draft, captureWildcard, permanent: item.permanent ?? false, destination, createdAt: ctx.now });
  await ctx.tx.insert(TABLES.siteRedirects, record);
  return { status: 'created', source, draft, id: record.id };
}

/** Creates, updates, deletes or publishes redirects of a site, each on its own; admins only. */
export const bulkUpsertSiteRedirects = writeOperation({
  name: 'bulkUpsertSiteRedirects',
  summary: 'Create, update, delete or publish redirects of a site in bulk',
  params: { organizationId: Id, siteId: Id },
  body: { redirects: v.pipe(v.array(BulkItem), v.minLength(1, 'must have at least one redirect'), v.maxLength(500, 'must have at most 500 redirects')) },
  response: v.object({ results: v.array(BulkResultSchema) }),
  locks: locksSite,
  async run(ctx, { organizationId, siteId, redirects }) {
    redirects.forEach((item, at) => {
      if (item.intent !== 'publish' && item.destination === undefined) throw badRequest(`redirects.${at}.destination: is required (null deletes the redirect)`);
    });
    const { site } = await requireSite(ctx, organizationId, siteId, 'admin', 'change its redirects');
    const results: Result[] = [];
    for (const item of redirects) {
      try {
        results.push(item.intent === 'publish' ? await publish(ctx, site, item.source) : await upsert(ctx, site, item));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ status: 'error', source: item.source, draft: item.intent === 'draft', error: error.message });
      }
    }
    return { results };
  },
});
