import * as v from 'valibot';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation, writeOperation } from '../operation.js';
import { requireSettings } from '../permissions.js';
import { INDEXES, TABLES, type TranslationRecord } from '../records.js';
import { Id } from '../schemas.js';
import { loadTranslation, presentTranslation } from './present.js';
import { TranslationLanguages, TranslationList, TranslationSchema, TranslationTitle } from './schemas.js';

/** Path parameters of one translation settings object. */
const one = { organizationId: Id, translationSettingsId: Id };

/** Lists an organization's translation settings, oldest first; members with a role. */
export const listTranslations = readOperation({
  name: 'listTranslations',
  summary: 'List the translation settings of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: TranslationList,
  async run(ctx, input) {
    const { member } = await requireSettings(ctx, input.organizationId, 'view', 'list translations');
    const page = await pageOf(ctx.tx, TABLES.translations, { index: INDEXES.translationsByOrganization, value: input.organizationId }, input);
    return mapPage(page, (translation) => presentTranslation(ctx, translation as TranslationRecord, member));
  },
});

/** Creates translation settings (`languages` optional, default none); admins only. */
export const createTranslation = writeOperation({
  name: 'createTranslation',
  summary: 'Create translation settings in an organization',
  params: { organizationId: Id },
  body: { title: TranslationTitle, languages: v.optional(TranslationLanguages) },
  response: TranslationSchema,
  async run(ctx, { organizationId, title, languages = [] }) {
    const { member } = await requireSettings(ctx, organizationId, 'edit', 'create translations');
    const translation: TranslationRecord = { id: ctx.ids.id(), organizationId, title, languages, createdAt: ctx.now, updatedAt: ctx.now };
    await ctx.tx.insert(TABLES.translations, translation);
    return presentTranslation(ctx, translation, member);
  },
});

/** Gets translation settings; members with a role. */
export const getTranslation = readOperation({
  name: 'getTranslation',
  summary: 'Get translation settings',
  params: one,
  response: TranslationSchema,
  async run(ctx, { organizationId, translationSettingsId }) {
    const { member } = await requireSettings(ctx, organizationId, 'view', 'read translations');
    return presentTranslation(ctx, await loadTranslation(ctx, organizationId, translationSettingsId), member);
  },
});

/**
 * Replaces the title of translation settings, and their languages when given (absent: kept, so a client
 * that only knows `title` does not wipe them); admins only. Every update sets `updatedAt`.
 */
export const updateTranslation = writeOperation({
  name: 'updateTranslation',
  summary: 'Update translation settings',
  params: one,
  body: { title: TranslationTitle, languages: v.optional(TranslationLanguages) },
  response: TranslationSchema,
  async run(ctx, { organizationId, translationSettingsId, title, languages }) {
    const { member } = await requireSettings(ctx, organizationId, 'edit', 'change translations');
    const translation = await loadTranslation(ctx, organizationId, translationSettingsId);
    const updated: TranslationRecord = { ...translation, title, languages: languages ?? translation.languages, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.translations, updated);
    return presentTranslation(ctx, updated, member);
  },
});

/** Deletes translation settings; admins only. */
export const deleteTranslation = writeOperation({
  name: 'deleteTranslation',
  summary: 'Delete translation settings',
  params: one,
  response: null,
  async run(ctx, { organizationId, translationSettingsId }) {
    await requireSettings(ctx, organizationId, 'edit', 'delete translations');
    const translation = await loadTranslation(ctx, organizationId, translationSettingsId);
    await ctx.tx.delete(TABLES.translations, translation.id);
  },
});
