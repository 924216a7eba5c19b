import * as v from 'valibot';
import { MEMBER_ROLES, TEAM_ROLES } from './roles.js';

/**
 * Schemas shared by every area: identifiers, timestamps, roles, query coercion and the user object.
 * Query values arrive as strings over HTTP and as typed values through the library; the query
 * schemas accept both.
 */

/** An identifier in a path or a body. */
export const Id = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'));

/** An ISO 8601 timestamp in a response. */
export const Timestamp = v.pipe(v.string(), v.isoTimestamp());

/** An absolute URL in a response. */
export const Url = v.pipe(v.string(), v.url());

/**
 * A URL browsers are sent to (a sign-in page, a redirect's destination, a link of a published site): an
 * absolute http(s) URL of at most 2048 characters. Other schemes (`javascript:`, `data:`) are refused.
 */
export const HttpUrl = v.pipe(
  v.string(),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be an absolute URL'),
  v.regex(/^https?:\/\//i, 'must be an http or https URL'),
);

/** A member role. */
export const MemberRoleSchema = v.picklist(MEMBER_ROLES);

/** A member role or null (a guest). */
export const MemberRoleOrGuest = v.nullable(MemberRoleSchema);

/** A team role. */
export const TeamRoleSchema = v.picklist(TEAM_ROLES);

/** A whole number in a query string or a body, within bounds. */
export function queryInteger(min: number, max: number) {
  return v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be a whole number'), v.transform(Number))], 'must be a whole number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
}

/** A boolean in a query string (`true`/`false`) or a body. */
export const QueryBoolean = v.union(
  [v.boolean(), v.pipe(v.picklist(['true', 'false']), v.transform((value) => value === 'true'))],
  'must be true or false',
);

/** A list of strings in a query string: repeated (`?a=1&a=2`) or comma-separated (`?a=1,2`). */
export const QueryStringList = v.pipe(
  v.union([v.string(), v.array(v.string())], 'must be a list of strings'),
  v.transform((value) => (Array.isArray(value) ? value : [value]).flatMap((item) => item.split(',')).filter(Boolean)),
);

/** The user object of responses. */
export const UserSchema = v.object({
  object: v.literal('user'),
  id: v.string(),
  displayName: v.string(),
  email: v.optional(v.string()),
  photoURL: v.optional(v.string()),
  urls: v.object({ location: Url }),
});

/** The body of every failed response. */
export const ErrorSchema = v.object({
  error: v.object({ code: v.pipe(v.number(), v.integer()), message: v.string() }),
});
