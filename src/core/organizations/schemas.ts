import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { MemberRoleOrGuest, Timestamp, Url } from '../schemas.js';

/** Organization types of the public API. */
export const ORGANIZATION_TYPES = ['business', 'community'] as const;
/** Use cases of the public API. */
export const ORGANIZATION_USE_CASES = [
  'internalDocs', 'docsSite', 'audienceControlledSite', 'productDocs', 'teamKnowledgeBase',
  'designSystem', 'openSourceDocs', 'notes', 'other',
] as const;
/** Billing products of the public API; a self-hosted organization is on `free_2024`. */
export const BILLING_PRODUCTS = [
  'free_2024', 'plus_2024', 'pro_2024', 'enterprise_2024', 'community_2024', 'free', 'plus', 'pro', 'internal',
] as const;
/** Trial states of the public API; a self-hosted organization has no trial (`notapplicable`). */
export const TRIAL_STATES = ['notapplicable', 'none', 'active', 'ended', 'expired'] as const;

/** An organization's title: 2 to 255 characters, not starting or ending with a space. */
export const OrganizationTitle = v.pipe(
  v.string(),
  v.minLength(2, 'must be 2 to 255 characters'),
  v.maxLength(255, 'must be 2 to 255 characters'),
  v.regex(/^\S[\s\S]*\S$/, 'must not start or end with whitespace'),
);

/** An organization's hostname: a DNS label of 3 to 32 lower-case letters, digits and inner hyphens. */
export const OrganizationHostname = v.pipe(
  v.string(),
  v.minLength(3, 'must be 3 to 32 characters'),
  v.maxLength(32, 'must be 3 to 32 characters'),
  v.regex(/^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/, 'must be lower-case letters, digits and inner hyphens'),
);

/** An e-mail domain such as `example.com`. */
export const EmailDomain = v.pipe(
  v.string(),
  v.maxLength(253, 'must be at most 253 characters'),
  v.toLowerCase(),
  v.regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as example.com'),
);

/** A pointer to the site an organization shows by default. */
export const DefaultContent = v.object({ type: v.literal('site'), site: v.string() });

/** The organization object of responses. */
export const OrganizationSchema = v.object({
  object: v.literal('organization'),
  id: v.string(),
  title: v.string(),
  createdAt: Timestamp,
  emailDomains: v.array(v.string()),
  hostname: v.optional(v.string()),
  type: v.picklist(ORGANIZATION_TYPES),
  useCase: v.optional(v.picklist(ORGANIZATION_USE_CASES)),
  defaultRole: v.optional(MemberRoleOrGuest),
  defaultContent: v.optional(DefaultContent),
  sso: v.optional(v.boolean()),
  ai: v.optional(v.boolean()),
  inviteLinks: v.boolean(),
  plan: v.picklist(BILLING_PRODUCTS),
  urls: v.object({ location: Url, app: Url, logo: v.optional(Url) }),
  // `count` is a whole number, as in the public API (integer there).
  trial: v.object({ status: v.picklist(TRIAL_STATES), count: v.pipe(v.number(), v.integer()) }),
  internal_isOnNewTrial: v.literal(true),
  permissions: v.object({
    view: v.boolean(),
    admin: v.boolean(),
    ownTeam: v.boolean(),
    createContent: v.boolean(),
    createOpenAPISpec: v.boolean(),
    viewBilling: v.boolean(),
    listMembers: v.boolean(),
    listTeams: v.boolean(),
    listIntegrations: v.boolean(),
  }),
});

/** A list of organizations. */
export const OrganizationList = listSchema(OrganizationSchema);
