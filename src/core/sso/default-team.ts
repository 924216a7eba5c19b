import type { Context } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { INDEXES, TABLES, type SamlProviderRecord, type TeamRecord } from '../records.js';

/** Checks that `defaultTeam` names a team of the organization (400 otherwise) and returns its id. */
export async function resolveDefaultTeam(ctx: Context, organizationId: string, teamId: string): Promise<string> {
  const team = (await ctx.tx.get(TABLES.teams, teamId)) as TeamRecord | undefined;
  if (!team || team.organizationId !== organizationId) throw badRequest(`defaultTeam: no team ${teamId} in this organization`);
  return team.id;
}

/**
 * Refuses (409) to delete a team that a SAML provider puts new members in. Deleting it quietly would
 * change how people are let in through SSO, which only admins may change, while team owners may delete
 * their team: the admin first points the provider elsewhere (or sets `defaultTeam: null`).
 */
export async function assertNotDefaultTeam(ctx: Context, teamId: string): Promise<void> {
  const { items } = await ctx.tx.list(TABLES.samlProviders, { index: INDEXES.samlProvidersByDefaultTeam, value: teamId, limit: 1 });
  const provider = items[0] as SamlProviderRecord | undefined;
  if (provider) {
    throw conflict(`Cannot delete the team: it is the default team of the SAML provider "${provider.label}" (${provider.id}); change the provider's defaultTeam first`);
  }
}
