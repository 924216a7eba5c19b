import type { Context, WriteContext } from '../../context.js';
import { badRequest, conflict } from '../../errors.js';
import { keyAtEnd, listSiblings } from '../../ordering/siblings.js';
import { spacePermissions } from '../../permissions.js';
import { TABLES, type MemberRecord, type SiteRecord, type SiteSpaceRecord, type SpaceRecord } from '../../records.js';
import { contentLevels, type ContentLevels } from '../../spaces/levels.js';
import { expired } from '../../spaces/trash.js';
import { pointLevelDefault } from '../defaults.js';
import { freePath, slugOf } from '../paths.js';
import { siteSpaceLevel } from '../structure.js';

/**
 * The space a request puts on a site: a space of the site's organization, not deleted, that the caller
 * can view. Anything else is a 400 naming `field` (a space the caller cannot see reads as missing).
 * A caller checking several spaces passes the member's `levels`, loaded once.
 */
export async function spaceForSite(
  ctx: Context,
  organizationId: string,
  member: MemberRecord,
  spaceId: string,
  field: string,
  levels?: ContentLevels,
): Promise<SpaceRecord> {
  const space = (await ctx.tx.get(TABLES.spaces, spaceId)) as SpaceRecord | undefined;
  const missing = badRequest(`${field}: no space ${spaceId} in organization ${organizationId}`);
  if (!space || space.organizationId !== organizationId || expired(space, ctx.now)) throw missing;
  const level = (levels ?? (await contentLevels(ctx, organizationId, member))).space(space);
  if (!spacePermissions(level, space.editMode).view) throw missing;
  if (space.deletedAt !== undefined) throw badRequest(`${field}: space ${spaceId} is deleted; restore it first`);
  return space;
}

/**
 * Puts a space at the end of a level of a site (a section, or the root when `sectionId` is absent),
 * with a path made from the space's title that its siblings do not use. A space is at most once in a
 * level (409). The first site space of a level becomes its default.
 */
export async function insertSiteSpace(ctx: WriteContext, site: SiteRecord, sectionId: string | undefined, space: SpaceRecord): Promise<SiteSpaceRecord> {
  const level = siteSpaceLevel(site.id, sectionId);
  const siblings = (await listSiblings(ctx.tx, level)).map((sibling) => sibling.record as unknown as SiteSpaceRecord);
  if (siblings.some((sibling) => sibling.spaceId === space.id)) throw conflict(`spaceId: space ${space.id} is already in ${level.label}`);
  const record: SiteSpaceRecord = {
    id: ctx.ids.id(),
    siteId: site.id,
    organizationId: site.organizationId,
    spaceId: space.id,
    ...(sectionId !== undefined && { sectionId }),
    path: freePath(slugOf(space.title, 'space'), new Set(siblings.map((sibling) => sibling.path))),
    parentKey: level.key,
    orderKey: await keyAtEnd(ctx.tx, level),
    createdAt: ctx.now,
  };
  await ctx.tx.insert(TABLES.siteSpaces, record);
  if (siblings.length === 0) await pointLevelDefault(ctx, site.id, sectionId, record.id);
  return record;
}
