import type * as v from 'valibot';
import type { Context } from '../context.js';
import { loadInOrganization } from '../lookup.js';
import { settingsPermissions } from '../permissions.js';
import { TABLES, type MemberRecord, type TranslationRecord } from '../records.js';
import type { TranslationSchema } from './schemas.js';

/** The translation settings object, with the caller's permissions. */
export function presentTranslation(ctx: Context, translation: TranslationRecord, caller: MemberRecord): v.InferInput<typeof TranslationSchema> {
  return {
    object: 'translation-settings',
    id: translation.id,
    title: translation.title,
    languages: [...translation.languages],
    createdAt: translation.createdAt,
    updatedAt: translation.updatedAt,
    permissions: settingsPermissions(caller),
    urls: { location: ctx.urls.api(`/orgs/${translation.organizationId}/translations/${translation.id}`) },
  };
}

/** Loads translation settings of an organization, or 404. */
export function loadTranslation(ctx: Context, organizationId: string, translationId: string): Promise<TranslationRecord> {
  return loadInOrganization<TranslationRecord>(ctx, TABLES.translations, organizationId, translationId, 'translation settings');
}
