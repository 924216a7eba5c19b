import * as v from 'valibot';
import { badRequest } from '../errors.js';
import { writeOperation } from '../operation.js';
import { REMOVE, applyPatch } from '../patch.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from './access.js';
import { presentSpaceTo } from './present.js';
import { DefaultLevelInput, EditModeSchema, Emoji, SpaceLanguageSchema, SpaceSchema, SpaceTitle, SpaceVisibilitySchema } from './schemas.js';

/**
 * Updates a space's settings; needs the admin permission on it. Absent fields stay as they are;
 * `emoji: null` removes the emoji; `defaultLevel: "inherit"` makes it take its collection's level again.
 * `language` sets the language its content is written in (the public API has no way to unset it).
 * `updatedAt` moves only when something changed. `in-collection` is only for a space in a collection.
 */
export const updateSpace = writeOperation({
  name: 'updateSpace',
  summary: 'Update a space',
  params: { spaceId: Id },
  body: {
    title: v.optional(SpaceTitle),
    emoji: v.optional(v.nullable(Emoji)),
    editMode: v.optional(EditModeSchema),
    defaultLevel: v.optional(DefaultLevelInput),
    visibility: v.optional(SpaceVisibilitySchema),
    language: v.optional(SpaceLanguageSchema),
  },
  response: SpaceSchema,
  async run(ctx, { spaceId, title, emoji, editMode, defaultLevel, visibility, language }) {
    const { space, member } = await requireSpace(ctx, spaceId, 'admin', 'change its settings', { purge: ctx.tx });
    if (visibility === 'in-collection' && space.parent === undefined) {
      throw badRequest('visibility: in-collection is only for spaces in a collection');
    }
    const patched = applyPatch(space, {
      title,
      emoji: emoji === null ? '' : emoji,
      editMode,
      visibility,
      language,
      defaultLevel: defaultLevel === 'inherit' ? REMOVE : defaultLevel,
    });
    if (patched === space) return presentSpaceTo(ctx, space, member);
    const updated: SpaceRecord = { ...patched, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.spaces, updated);
    return presentSpaceTo(ctx, updated, member);
  },
});
