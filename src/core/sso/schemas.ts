import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { HttpUrl, Id, MemberRoleOrGuest, Timestamp, Url } from '../schemas.js';
import { TeamSchema } from '../teams/schemas.js';

/** A provider's label: 1 to 30 characters. */
export const SamlLabel = v.pipe(v.string(), v.minLength(1, 'must be 1 to 30 characters'), v.maxLength(30, 'must be 1 to 30 characters'));

/** The identity provider's sign-in URL: browsers are sent there, so an http(s) URL (HttpUrl). */
export const SamlSsoUrl = HttpUrl;

/** The identity provider's entity id: 1 to 1024 characters. */
export const SamlEntityId = v.pipe(v.string(), v.minLength(1, 'must be 1 to 1024 characters'), v.maxLength(1024, 'must be 1 to 1024 characters'));

/** The identity provider's signing certificate: 1 to 10000 characters. */
export const SamlCertificate = v.pipe(
  v.string(),
  v.minLength(1, 'must be 1 to 10000 characters'),
  v.maxLength(10000, 'must be 1 to 10000 characters'),
);

/** The fields a create or an update may set; `defaultTeam: null` removes the default team. */
export const samlProviderFields = {
  entityID: v.optional(SamlEntityId),
  certificate: v.optional(SamlCertificate),
  ssoURL: v.optional(SamlSsoUrl),
  defaultTeam: v.optional(v.nullable(Id)),
  defaultRole: v.optional(MemberRoleOrGuest),
};

/** `active` once the provider has its sign-in URL, entity id and certificate; `pending` before. */
export const SAML_PROVIDER_STATUSES = ['active', 'pending'] as const;

/** The SAML provider object of responses; `certificate` only for admins. */
export const SamlProviderSchema = v.object({
  object: v.literal('saml-provider'),
  id: v.string(),
  label: v.string(),
  ssoURL: v.optional(Url),
  entityID: v.optional(v.string()),
  certificate: v.optional(v.string()),
  defaultTeam: v.optional(TeamSchema),
  defaultRole: MemberRoleOrGuest,
  createdAt: Timestamp,
  status: v.picklist(SAML_PROVIDER_STATUSES),
  service: v.object({ acsURL: Url, startURL: Url, entityID: v.string() }),
  urls: v.object({ location: Url }),
});

/** A list of SAML providers. */
export const SamlProviderList = listSchema(SamlProviderSchema);

/** How to sign in to an organization with one of its providers. */
export const SsoLoginSchema = v.object({ id: v.string(), label: v.string(), startURL: Url });

/** The sign-in options of an organization: every active provider, without a paging envelope. */
export const SsoLoginList = v.object({ items: v.array(SsoLoginSchema) });
