import * as v from 'valibot';

/** The response of a merge: the revision it made, and `conflicts` when both sides changed the same things. */
export const MergeResultSchema = v.object({
  revision: v.string(),
  result: v.picklist(['merge', 'conflicts']),
});

/** The response of an update: the change request's new revision, and `conflicts` as for a merge. */
export const UpdateResultSchema = v.object({
  revision: v.string(),
  result: v.picklist(['update', 'conflicts']),
});
