import * as v from 'valibot';
import { notReserved } from './paths.js';

/**
 * Field schemas shared by the site areas (sites, sections, section groups, site spaces): the limits
 * of Part 3 of the specification, and the patterns of the public API where Part 3 quotes them.
 */

/** A string of `min` to `max` characters, with the one message both bounds share. */
export function sized(min: number, max: number) {
  const message = min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`;
  return v.pipe(v.string(), v.minLength(min, message), v.maxLength(max, message));
}

/** A site's title, and a section's: 2 to 128 characters. */
export const SiteTitle = sized(2, 128);

/** A site's basename: 1 to 100 characters. */
export const SitePath = sized(1, 100);

/** The path of a section or a site space on its site: 1 to 100 characters, none of the reader's own names (paths.ts). */
export const SegmentPath = v.pipe(SitePath, notReserved);

/** A condition: an expression over the visitor's claims deciding whether something is shown, 1 to 1024 characters. */
export const Condition = sized(1, 1024);

/** An icon name (`gear`, `book-open`): 1 to 50 characters. */
export const IconName = sized(1, 50);

/** A section's description: at most 256 characters. */
export const SectionDescription = sized(0, 256);

/** A section group's title: 1 to 100 characters. */
export const GroupTitle = sized(1, 100);

/** The kinds of site, as the public API lists them; `basic` is the default. */
export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;

/** A site's type. */
export const SiteTypeSchema = v.picklist(SITE_TYPES);

/** Who can read a published site. */
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;

/** A site's visibility. */
export const SiteVisibilitySchema = v.picklist(SITE_VISIBILITIES);

/** A custom hostname, e.g. `docs.example.com` (the pattern and limit of Part 3). */
export const Hostname = v.pipe(
  v.string(),
  v.maxLength(512, 'must be at most 512 characters'),
  v.regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/,
    'must be a lower-case hostname of three labels or more, such as docs.example.com',
  ),
);

/** A proxy origin, e.g. `example.com/docs` (the pattern and limit of Part 3). */
export const ProxyOrigin = v.pipe(
  v.string(),
  v.maxLength(512, 'must be at most 512 characters'),
  v.regex(/^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/, 'must be a domain followed by a path, such as example.com/docs'),
);

/** The `urls` of a section or a site space: `published` only while the site is published. */
export const PublishedUrls = v.object({ published: v.optional(v.pipe(v.string(), v.url())) });
