import type * as v from 'valibot';
import type { Context } from '../context.js';
import { loadInOrganization } from '../lookup.js';
import { SETTINGS_RULES } from '../permissions.js';
import { TABLES, type MemberRecord, type SamlProviderRecord, type TeamRecord } from '../records.js';
import { presentTeam } from '../teams/present.js';
import type { SamlProviderSchema } from './schemas.js';

/**
 * The service-provider side of a SAML provider: the URLs an identity provider is configured with. They
 * are built from the platform's public base URL (createPlatform's `baseUrl`, else the request's origin),
 * so a self-hosted server hands out addresses on its own host.
 */
export function serviceOf(ctx: Context, provider: SamlProviderRecord) {
  const base = `/saml/${provider.organizationId}/${provider.id}`;
  return {
    acsURL: ctx.urls.app(`${base}/acs`),
    startURL: ctx.urls.app(`${base}/start`),
    entityID: ctx.urls.app(base),
  };
}

/** Whether members can sign in with the provider: it needs its sign-in URL, entity id and certificate. */
export function isActive(provider: SamlProviderRecord): boolean {
  return provider.ssoURL !== undefined && provider.entityID !== undefined && provider.certificate !== undefined;
}

/** The SAML provider object for a member; the certificate is shown to admins only. */
export async function presentSamlProvider(
  ctx: Context,
  provider: SamlProviderRecord,
  caller: MemberRecord,
): Promise<v.InferInput<typeof SamlProviderSchema>> {
  const team = provider.defaultTeamId === undefined ? undefined : await loadDefaultTeam(ctx, provider.defaultTeamId);
  return {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    ...(provider.ssoURL !== undefined && { ssoURL: provider.ssoURL }),
    ...(provider.entityID !== undefined && { entityID: provider.entityID }),
    ...(provider.certificate !== undefined && SETTINGS_RULES.edit(caller) && { certificate: provider.certificate }),
    ...(team && { defaultTeam: await presentTeam(ctx, team, caller) }),
    defaultRole: provider.defaultRole,
    createdAt: provider.createdAt,
    status: isActive(provider) ? 'active' : 'pending',
    service: serviceOf(ctx, provider),
    urls: { location: ctx.urls.api(`/orgs/${provider.organizationId}/saml/${provider.id}`) },
  };
}

/** Loads a provider's default team; deleteTeam refuses to delete it (assertNotDefaultTeam), so it exists. */
async function loadDefaultTeam(ctx: Context, teamId: string): Promise<TeamRecord> {
  const team = (await ctx.tx.get(TABLES.teams, teamId)) as TeamRecord | undefined;
  if (!team) throw new Error(`Dangling reference to team ${teamId}`);
  return team;
}

/** Loads a SAML provider of an organization, or 404. */
export function loadSamlProvider(ctx: Context, organizationId: string, providerId: string): Promise<SamlProviderRecord> {
  return loadInOrganization<SamlProviderRecord>(ctx, TABLES.samlProviders, organizationId, providerId, 'SAML provider');
}
