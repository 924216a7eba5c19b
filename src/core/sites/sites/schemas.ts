import * as v from 'valibot';
import { listSchema } from '../../pagination.js';
import { Timestamp, Url } from '../../schemas.js';
import { SiteTypeSchema, SiteVisibilitySchema } from '../schemas.js';

/** The features a site can use, named as the public API's `SiteFeatureKey` (the ones docs-platform reports). */
export const SITE_FEATURES = [
  'sites-adaptive-content',
  'sites-custom-domain',
  'sites-custom-subdirectory',
  'sites-multivariant-site',
  'sites-sections',
  'sites-share-links',
  'sites-visitor-authentication',
] as const;

/** The site object of responses. */
export const SiteSchema = v.object({
  object: v.literal('site'),
  id: v.string(),
  type: SiteTypeSchema,
  title: v.string(),
  hostname: v.optional(v.string()),
  basename: v.optional(v.string()),
  proxy: v.optional(v.object({ origin: v.string(), target: v.string() })),
  visibility: SiteVisibilitySchema,
  published: v.boolean(),
  siteSpaces: v.pipe(v.number(), v.integer()),
  createdAt: Timestamp,
  adaptiveContent: v.object({ enabled: v.boolean() }),
  ads: v.object({ status: v.literal('pending'), submittable: v.boolean() }),
  features: v.array(v.object({ id: v.picklist(SITE_FEATURES), plan: SiteTypeSchema, frozen: v.boolean() })),
  urls: v.object({ location: Url, app: Url, published: v.optional(Url) }),
});

/** A list of sites. */
export const SiteList = listSchema(SiteSchema);
