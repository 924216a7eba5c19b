import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Timestamp, Url, UserSchema } from '../schemas.js';

/** Every status of a change request. */
export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;

/** The statuses a PATCH may set: `merged` is reached only through a merge. */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;

/** A change request's status (list filter, responses). */
export const ChangeRequestStatusSchema = v.picklist(CHANGE_REQUEST_STATUSES);

/** A change request's subject: at most 100 characters, may be empty. */
export const ChangeRequestSubject = v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters'));

/** The change request object of responses. */
export const ChangeRequestSchema = v.object({
  object: v.literal('change-request'),
  id: v.string(),
  number: v.number(),
  status: ChangeRequestStatusSchema,
  subject: v.string(),
  createdBy: UserSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  revision: v.string(),
  revisionInitial: v.string(),
  revisionMergedAncestor: v.optional(v.string()),
  revisionMerged: v.optional(v.string()),
  mergedBy: v.optional(UserSchema),
  mergedAt: v.optional(Timestamp),
  comments: v.number(),
  outdated: v.boolean(),
  urls: v.object({ app: Url, location: Url }),
});

/** A list of change requests. */
export const ChangeRequestList = listSchema(ChangeRequestSchema);
