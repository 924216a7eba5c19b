import * as v from 'valibot';
import { readOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { ShareKey } from '../../spaces/schemas.js';
import { requireSite } from '../access.js';
import { sitePresenter, type GroupOutput, type SectionOutput } from '../presenter.js';
import { GroupSchema } from '../section-groups/schemas.js';
import { SectionSchema } from '../sections/schemas.js';
import { SiteSpaceSchema } from '../site-spaces/schemas.js';
import { presentSite } from '../sites/present.js';
import { SiteSchema } from '../sites/schemas.js';
import { CustomizationsSchema, customizationsOf, loadCustomization } from '../customization/customizations.js';

/** The published site object: the site, its structure and its customizations. */
export const PublishedSiteSchema = v.object({
  object: v.literal('published-content-site'),
  site: SiteSchema,
  structure: v.variant('type', [
    v.object({ type: v.literal('sections'), structure: v.array(v.union([SectionSchema, GroupSchema])) }),
    v.object({ type: v.literal('siteSpaces'), structure: v.array(SiteSpaceSchema) }),
  ]),
  customizations: CustomizationsSchema,
});

/**
 * Gets what a site publishes, in one call: the site, its structure in published order and its
 * customizations. A site with sections has the `sections` structure (its ungrouped sections and its
 * groups, each section with its site spaces); one without has the `siteSpaces` structure. Members read
 * it whether or not the site is published yet (`site.published` says which), so they can check it
 * before publishing. `shareKey` goes into the published URLs of a share-link site.
 */
export const getPublishedContentSite = readOperation({
  name: 'getPublishedContentSite',
  summary: 'Get the published content of a site',
  params: { organizationId: Id, siteId: Id },
  query: { shareKey: v.optional(ShareKey) },
  response: PublishedSiteSchema,
  async run(ctx, { organizationId, siteId, shareKey }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'view', 'read its sites');
    const presenter = await sitePresenter(ctx, site, member, shareKey);
    const { structure } = presenter;
    let published: v.InferInput<typeof PublishedSiteSchema>['structure'];
    if (structure.sections.length > 0) {
      const items: (SectionOutput | GroupOutput)[] = [];
      for (const entry of structure.top) {
        items.push(entry.kind === 'section' ? await presenter.section(entry.node) : await presenter.group(entry.group, entry.sections));
      }
      published = { type: 'sections', structure: items };
    } else {
      const items = [];
      for (const placed of structure.siteSpaces) items.push(await presenter.siteSpace(placed));
      published = { type: 'siteSpaces', structure: items };
    }
    return { object: 'published-content-site' as const, site: await presentSite(ctx, site, shareKey), structure: published, customizations: customizationsOf(site, await loadCustomization(ctx, site)) };
  },
});
