import * as v from 'valibot';
import { listSchema } from '../../pagination.js';
import { Id } from '../../schemas.js';
import { SectionSchema } from '../sections/schemas.js';

/** The section group object of responses, with its sections in order. */
export const GroupSchema = v.object({
  object: v.literal('site-section-group'),
  id: v.string(),
  title: v.string(),
  icon: v.optional(v.string()),
  sections: v.array(SectionSchema),
});

/** A list of section groups. */
export const GroupList = listSchema(GroupSchema);

/** A position reference in a group move: a section or a group of the top level, by `id`. */
export const TopLevelPointer = v.variant('type', [
  v.object({ type: v.literal('site-section'), id: Id }),
  v.object({ type: v.literal('site-section-group'), id: Id }),
]);
