import * as v from 'valibot';
import type { WriteContext } from '../../context.js';
import { contentGroup } from '../../collections/tree.js';
import { badRequest } from '../../errors.js';
import { keyAtEnd } from '../../ordering/siblings.js';
import { writeOperation } from '../../operation.js';
import { requireSites } from '../../permissions.js';
import { TABLES, type MemberRecord, type SiteRecord, type SpaceRecord } from '../../records.js';
import { Id } from '../../schemas.js';
import { insertSpace } from '../../spaces/create.js';
import { contentLevels } from '../../spaces/levels.js';
import { SiteTitle, SiteTypeSchema, SiteVisibilitySchema } from '../schemas.js';
import { insertSiteSpace, spaceForSite } from '../site-spaces/place.js';
import { cutText } from '../../well-formed.js';
import { presentSite } from './present.js';
import { SiteSchema } from './schemas.js';

/** The title of a site created without one. */
export const DEFAULT_SITE_TITLE = 'Untitled site';

/** `spaces` of a new site: space ids, or `empty` for a new empty space. */
const SpacesInput = v.union(
  [v.pipe(v.array(Id), v.maxLength(100, 'must have at most 100 entries')), v.literal('empty')],
  'must be a list of space ids, or "empty" for a new space',
);

/** A space title (at most 50 characters) from a site title, never cut inside a character. */
function spaceTitleFrom(title: string): string {
  return cutText(title, 50);
}

/** The spaces a new site starts with: the listed ones (distinct, each one the caller can view), or a new empty one. */
async function startingSpaces(ctx: WriteContext, organizationId: string, member: MemberRecord, spaces: string[] | 'empty' | undefined, title: string) {
  if (spaces === undefined) return [];
  if (spaces === 'empty') {
    // A new space is content at the top level of the organization: the create role, which creating a site needs too.
    const space = await insertSpace(ctx, {
      organizationId,
      orderKey: await keyAtEnd(ctx.tx, contentGroup(organizationId, undefined)),
      title: spaceTitleFrom(title),
      emoji: '',
      visibility: 'private',
      editMode: 'live',
    });
    return [space];
  }
  const found: SpaceRecord[] = [];
  const levels = await contentLevels(ctx, organizationId, member);
  for (const [i, spaceId] of spaces.entries()) {
    if (spaces.indexOf(spaceId) !== i) throw badRequest(`spaces.${i}: space ${spaceId} is listed twice`);
    found.push(await spaceForSite(ctx, organizationId, member, spaceId, `spaces.${i}`, levels));
  }
  return found;
}

/**
 * Creates a site, unpublished: `type` basic and `visibility` public unless given. Its `spaces` become
 * its site spaces at the root, in the order given, the first one the default; `spaces: "empty"` creates
 * a new empty space (titled after the site) for it. Needs the create role.
 */
export const createSite = writeOperation({
  name: 'createSite',
  summary: 'Create a site in an organization',
  params: { organizationId: Id },
  body: {
    type: v.optional(SiteTypeSchema, 'basic'),
    title: v.optional(SiteTitle),
    visibility: v.optional(SiteVisibilitySchema, 'public'),
    spaces: v.optional(SpacesInput),
  },
  response: SiteSchema,
  async run(ctx, { organizationId, type, title = DEFAULT_SITE_TITLE, visibility, spaces }) {
    const { member } = await requireSites(ctx, organizationId, 'structure', 'create sites');
    const starting = await startingSpaces(ctx, organizationId, member, spaces, title);
    const site: SiteRecord = {
      id: ctx.ids.id(),
      organizationId,
      type,
      title,
      visibility,
      published: false,
      adaptiveContent: false,
      createdAt: ctx.now,
    };
    await ctx.tx.insert(TABLES.sites, site);
    for (const space of starting) await insertSiteSpace(ctx, site, undefined, space);
    return presentSite(ctx, (await ctx.tx.get(TABLES.sites, site.id)) as SiteRecord);
  },
});
