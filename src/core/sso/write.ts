import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { assertRoomFor } from '../limits.js';
import { exclusive, groupScope } from '../scopes.js';
import { writeOperation } from '../operation.js';
import { REMOVE, applyPatch } from '../patch.js';
import { requireSettings } from '../permissions.js';
import { INDEXES, TABLES, type SamlProviderRecord } from '../records.js';
import { Id } from '../schemas.js';
import { resolveDefaultTeam } from './default-team.js';
import { loadSamlProvider, presentSamlProvider } from './present.js';
import { SamlLabel, SamlProviderSchema, samlProviderFields } from './schemas.js';

/** The most SAML providers an organization may have: its sign-in options are listed without paging. */
export const MAX_SAML_PROVIDERS = 20;

type Changes = { [K in keyof typeof samlProviderFields]?: v.InferOutput<(typeof samlProviderFields)[K]> } & { label?: string };

/**
 * Applies a create's or an update's fields to a provider: absent fields stay as they are, `defaultTeam`
 * must be a team of the organization (400) and `defaultTeam: null` removes it.
 */
async function applyChanges(ctx: WriteContext, provider: SamlProviderRecord, changes: Changes): Promise<SamlProviderRecord> {
  const { defaultTeam, ...fields } = changes;
  const team = typeof defaultTeam === 'string' ? await resolveDefaultTeam(ctx, provider.organizationId, defaultTeam) : undefined;
  return applyPatch(provider, { ...fields, defaultTeamId: defaultTeam === null ? REMOVE : team });
}

/**
 * Creates a SAML provider; admins only. Only `label` is required: the provider stays `pending` until it
 * has its sign-in URL, entity id and certificate. `defaultRole` defaults to the organization's. At most
 * MAX_SAML_PROVIDERS per organization (409).
 */
export const createSamlProvider = writeOperation({
  name: 'createSamlProvider',
  summary: 'Create a SAML provider for an organization',
  params: { organizationId: Id },
  body: { label: SamlLabel, ...samlProviderFields },
  response: SamlProviderSchema,
  // Its bound (assertRoomFor's group).
  locks: ({ organizationId }) => [exclusive(groupScope(TABLES.samlProviders, organizationId))],
  async run(ctx, { organizationId, ...changes }) {
    const { organization, member } = await requireSettings(ctx, organizationId, 'edit', 'create SAML providers');
    await assertRoomFor(ctx, TABLES.samlProviders, INDEXES.samlProvidersByOrganization, organizationId, MAX_SAML_PROVIDERS, 'SAML providers');
    const blank: SamlProviderRecord = {
      id: ctx.ids.id(),
      organizationId,
      label: changes.label,
      defaultRole: organization.defaultRole,
      createdAt: ctx.now,
    };
    const provider = await applyChanges(ctx, blank, changes);
    await ctx.tx.insert(TABLES.samlProviders, provider);
    return presentSamlProvider(ctx, provider, member);
  },
});

/** Updates a SAML provider; admins only. Absent fields are left as they are. */
export const updateSamlProvider = writeOperation({
  name: 'updateSamlProvider',
  summary: 'Update a SAML provider',
  params: { organizationId: Id, samlProviderId: Id },
  body: { label: v.optional(SamlLabel), ...samlProviderFields },
  response: SamlProviderSchema,
  async run(ctx, { organizationId, samlProviderId, ...changes }) {
    const { member } = await requireSettings(ctx, organizationId, 'edit', 'change SAML providers');
    const existing = await loadSamlProvider(ctx, organizationId, samlProviderId);
    const provider = await applyChanges(ctx, existing, changes);
    if (provider !== existing) await ctx.tx.put(TABLES.samlProviders, provider);
    return presentSamlProvider(ctx, provider, member);
  },
});

/** Deletes a SAML provider; admins only. Members who signed in with it stay members. */
export const deleteSamlProvider = writeOperation({
  name: 'deleteSamlProvider',
  summary: 'Delete a SAML provider',
  params: { organizationId: Id, samlProviderId: Id },
  response: null,
  async run(ctx, { organizationId, samlProviderId }) {
    await requireSettings(ctx, organizationId, 'edit', 'delete SAML providers');
    const provider = await loadSamlProvider(ctx, organizationId, samlProviderId);
    await ctx.tx.delete(TABLES.samlProviders, provider.id);
  },
});
