import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { assertMayCreateIn } from '../collections/placement.js';
import { contentGroup, parentKeyOf } from '../collections/tree.js';
import { keyAtEnd } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { organizationAccess } from '../permissions.js';
import { EMPTY_CONTENT } from '../content/model.js';
import { TABLES, type RevisionContent, type RevisionRecord, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { NEW_SPACE_COUNTS, spaceObject } from './present.js';
import { contentLevels } from './levels.js';
import { EditModeSchema, Emoji, SpaceLanguageSchema, SpaceSchema, SpaceTitle } from './schemas.js';

/** The title of a space created without one. */
export const DEFAULT_SPACE_TITLE = 'Untitled';

/** What a new space is made of; the id, revision and timestamps are added by insertSpace. */
export type NewSpace = Pick<SpaceRecord, 'organizationId' | 'parent' | 'orderKey' | 'title' | 'emoji' | 'visibility' | 'editMode' | 'defaultLevel' | 'language'>;

/**
 * Stores a new space with its first revision and returns it. The revision has no parents (a new history)
 * and the content `content` makes for the new space's id (default: empty), so `space.revision` always
 * names a real record.
 */
export async function insertSpace(
  ctx: WriteContext,
  fields: NewSpace,
  content: (spaceId: string) => Promise<RevisionContent> = async () => EMPTY_CONTENT,
) {
  const id = ctx.ids.id();
  const revision: RevisionRecord = { id: ctx.ids.id(), spaceId: id, parents: [], type: 'edits', content: await content(id), createdAt: ctx.now };
  const space: SpaceRecord = {
    ...fields,
    id,
    parentKey: parentKeyOf(fields.organizationId, fields.parent),
    revision: revision.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.tx.insert(TABLES.revisions, revision);
  await ctx.tx.insert(TABLES.spaces, space);
  return space;
}

/**
 * Creates a space at the end of the top level or of a collection (`parent`): private, `live` unless
 * `editMode` says otherwise, inheriting its level. Needs the create role (top level) or the create
 * level on the collection.
 */
export const createSpace = writeOperation({
  name: 'createSpace',
  summary: 'Create a space in an organization',
  params: { organizationId: Id },
  body: {
    title: v.optional(SpaceTitle),
    emoji: v.optional(Emoji),
    parent: v.optional(Id),
    editMode: v.optional(EditModeSchema),
    language: v.optional(SpaceLanguageSchema),
  },
  response: SpaceSchema,
  async run(ctx, { organizationId, title, emoji, parent, editMode, language }) {
    // The place at the end is read with the caller's access (one round trip on PostgreSQL, with the token's
    // reads); used only once the caller may create there.
    const [{ member }, orderKey] = await Promise.all([organizationAccess(ctx, organizationId), keyAtEnd(ctx.tx, contentGroup(organizationId, parent))]);
    // Read before the insert, which changes neither the collections nor the grants they come from.
    const levels = await contentLevels(ctx, organizationId, member);
    await assertMayCreateIn(ctx, organizationId, member, parent, levels);
    const space = await insertSpace(ctx, {
      organizationId,
      ...(parent !== undefined && { parent }),
      orderKey,
      title: title ?? DEFAULT_SPACE_TITLE,
      emoji: emoji ?? '',
      visibility: 'private',
      editMode: editMode ?? 'live',
      ...(language !== undefined && { language }),
    });
    return spaceObject(ctx, space, levels, NEW_SPACE_COUNTS);
  },
});
