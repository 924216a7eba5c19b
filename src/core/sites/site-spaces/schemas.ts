import * as v from 'valibot';
import { listSchema } from '../../pagination.js';
import { Id } from '../../schemas.js';
import { SpaceSchema } from '../../spaces/schemas.js';
import { PublishedUrls } from '../schemas.js';

/** The site space object of responses. */
export const SiteSpaceSchema = v.object({
  object: v.literal('site-space'),
  id: v.string(),
  path: v.string(),
  section: v.optional(v.string()),
  space: SpaceSchema,
  title: v.string(),
  default: v.boolean(),
  condition: v.optional(v.string()),
  urls: PublishedUrls,
});

/** A list of site spaces. */
export const SiteSpaceList = listSchema(SiteSpaceSchema);

/** A position reference to a site space: `{type: 'site-space', siteSpace: <id>}`. */
export const SiteSpacePointer = v.object({ type: v.literal('site-space'), siteSpace: Id });
