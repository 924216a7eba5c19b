import { assertMayCreateIn } from '../collections/placement.js';
import { contentGroup } from '../collections/tree.js';
import { keyRightAfter } from '../ordering/siblings.js';
import { writeOperation } from '../operation.js';
import { cloneContent, loadRevision } from '../content/revision.js';
import { Id } from '../schemas.js';
import { requireSpace } from './access.js';
import { insertSpace } from './create.js';
import { copyOwned } from './owned.js';
import { presentSpaceTo } from './present.js';
import { cutText } from '../well-formed.js';
import { SpaceSchema } from './schemas.js';

/** The title of a duplicate: "Copy of <title>", cut to the 50 characters a title may have (never inside a character). */
export function copyTitle(title: string): string {
  return cutText(`Copy of ${title}`, 50);
}

/**
 * Duplicates a space into the same place (right after it, in the same collection): a new space with a
 * copy of its current content as a new history (one revision, no parents), its settings (emoji,
 * visibility, edit mode, default level, language) and what else belongs to it as settings (team grants, custom
 * field values); not its change requests or comments. Needs to see the space and to create content
 * where it is.
 */
export const duplicateSpace = writeOperation({
  name: 'duplicateSpace',
  summary: 'Duplicate a space',
  params: { spaceId: Id },
  response: SpaceSchema,
  async run(ctx, { spaceId }) {
    const { space, member, levels } = await requireSpace(ctx, spaceId, 'view', 'duplicate it', { purge: ctx.tx });
    await assertMayCreateIn(ctx, space.organizationId, member, space.parent, levels);
    const revision = await loadRevision(ctx.tx, space.revision);
    const copy = await insertSpace(
      ctx,
      {
        organizationId: space.organizationId,
        ...(space.parent !== undefined && { parent: space.parent }),
        orderKey: await keyRightAfter(ctx.tx, contentGroup(space.organizationId, space.parent), { kind: 'space', id: space.id }),
        title: copyTitle(space.title),
        emoji: space.emoji,
        visibility: space.visibility,
        editMode: space.editMode,
        ...(space.defaultLevel !== undefined && { defaultLevel: space.defaultLevel }),
        ...(space.language !== undefined && { language: space.language }),
      },
      (spaceId) => cloneContent(ctx.tx, revision.content, spaceId, () => ctx.ids.id(), ctx.now),
    );
    await copyOwned(ctx.tx, space.id, copy.id, () => ctx.ids.id());
    return presentSpaceTo(ctx, copy, member);
  },
});
