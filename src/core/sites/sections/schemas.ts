import * as v from 'valibot';
import { listSchema } from '../../pagination.js';
import { Id } from '../../schemas.js';
import { PublishedUrls } from '../schemas.js';
import { SiteSpaceSchema } from '../site-spaces/schemas.js';

/** The site section object of responses, with its site spaces in order. */
export const SectionSchema = v.object({
  object: v.literal('site-section'),
  id: v.string(),
  title: v.string(),
  description: v.optional(v.string()),
  default: v.boolean(),
  path: v.string(),
  condition: v.optional(v.string()),
  sectionGroup: v.optional(v.string()),
  icon: v.optional(v.string()),
  siteSpaces: v.array(SiteSpaceSchema),
  urls: PublishedUrls,
});

/** A list of sections. */
export const SectionList = listSchema(SectionSchema);

/** A position reference to a section in a section move: `{type: 'site-section', siteSection: <id>}`. */
export const SectionPointer = v.object({ type: v.literal('site-section'), siteSection: Id });
