import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { MemberRoleOrGuest, Url } from '../schemas.js';

/** A collection's title: at most 50 characters. */
export const CollectionTitle = v.pipe(v.string(), v.maxLength(50, 'must be at most 50 characters'));

/** A collection's description: at most 100 characters. */
export const CollectionDescription = v.pipe(v.string(), v.maxLength(100, 'must be at most 100 characters'));

/** The collection object of responses. */
export const CollectionSchema = v.object({
  object: v.literal('collection'),
  id: v.string(),
  title: v.string(),
  description: v.optional(v.string()),
  organization: v.string(),
  parent: v.optional(v.string()),
  defaultLevel: MemberRoleOrGuest,
  urls: v.object({ location: Url, app: Url }),
  permissions: v.object({ view: v.boolean(), admin: v.boolean(), viewInviteLinks: v.boolean(), create: v.boolean() }),
});

/** A list of collections. */
export const CollectionList = listSchema(CollectionSchema);
