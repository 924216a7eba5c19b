import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { assertRoomFor } from '../limits.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation, writeOperation } from '../operation.js';
import { requireSettings } from '../permissions.js';
import { INDEXES, TABLES, type CustomFieldRecord, type CustomFieldValueRecord } from '../records.js';
import { Id } from '../schemas.js';
import { narrowToOptions } from './fit.js';
import { fieldKey, findCustomField, loadCustomField, presentCustomField } from './present.js';
import { CUSTOM_FIELD_TYPES, CustomFieldList, CustomFieldName, CustomFieldSchema, SELECT_TYPES, customFieldDetails } from './schemas.js';
import { exclusive, groupScope, organizationScope } from '../scopes.js';

/** The most custom fields an organization may have: a space's values are returned without paging. */
export const MAX_CUSTOM_FIELDS = 100;

/** Path parameters of one field. */
const one = { organizationId: Id, fieldName: Id };

/** A field that a PATCH may not change: named so the caller learns why, instead of being ignored. */
const Fixed = v.optional(v.never('cannot be changed after the field is created'));

/** Only select fields have options, and they must have some (400 otherwise). */
function assertOptionsFit(type: string, options: readonly string[] | undefined): void {
  const select = SELECT_TYPES.includes(type as (typeof SELECT_TYPES)[number]);
  if (select && !options) throw badRequest(`options: are required for a ${type} field`);
  if (!select && options) throw badRequest(`options: only select:single and select:multi fields have options, not ${type}`);
}

/** Lists an organization's custom fields, oldest first; members with a role. */
export const listCustomFields = readOperation({
  name: 'listCustomFields',
  summary: 'List the custom fields of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: CustomFieldList,
  async run(ctx, input) {
    const { member } = await requireSettings(ctx, input.organizationId, 'view', 'list custom fields');
    const page = await pageOf(ctx.tx, TABLES.customFields, { index: INDEXES.customFieldsByOrganization, value: input.organizationId }, input);
    return mapPage(page, (field) => presentCustomField(ctx, field as CustomFieldRecord, member));
  },
});

/**
 * Creates a custom field; admins only. The name is unique in the organization (409) and fixed for good;
 * select fields need options, other types take none. At most MAX_CUSTOM_FIELDS per organization (409).
 */
export const createCustomField = writeOperation({
  name: 'createCustomField',
  summary: 'Create a custom field in an organization',
  params: { organizationId: Id },
  body: { name: CustomFieldName, type: v.picklist(CUSTOM_FIELD_TYPES), ...customFieldDetails },
  response: CustomFieldSchema,
  // Its name (the organization) and its bound (assertRoomFor's group).
  locks: ({ organizationId }) => [exclusive(organizationScope(organizationId)), exclusive(groupScope(TABLES.customFields, organizationId))],
  async run(ctx, { organizationId, name, type, title = '', description = '', placeholder = '', options }) {
    // Its name must stay unique: two creations with one name queue.
    await ctx.tx.lock(organizationScope(organizationId), 'exclusive');
    const { member } = await requireSettings(ctx, organizationId, 'edit', 'create custom fields');
    assertOptionsFit(type, options);
    if (await findCustomField(ctx, organizationId, name)) throw conflict(`name: a custom field named ${name} exists in this organization`);
    await assertRoomFor(ctx, TABLES.customFields, INDEXES.customFieldsByOrganization, organizationId, MAX_CUSTOM_FIELDS, 'custom fields');
    const field: CustomFieldRecord = {
      id: ctx.ids.id(),
      organizationId,
      key: fieldKey(organizationId, name),
      name,
      type,
      title,
      description,
      placeholder,
      ...(options && { options }),
      createdAt: ctx.now,
      updatedAt: ctx.now,
    };
    await ctx.tx.insert(TABLES.customFields, field);
    return presentCustomField(ctx, field, member);
  },
});

/** Gets a custom field by its name; members with a role. */
export const getCustomField = readOperation({
  name: 'getCustomField',
  summary: 'Get a custom field of an organization',
  params: one,
  response: CustomFieldSchema,
  async run(ctx, { organizationId, fieldName }) {
    const { member } = await requireSettings(ctx, organizationId, 'view', 'read custom fields');
    return presentCustomField(ctx, await loadCustomField(ctx, organizationId, fieldName), member);
  },
});

/**
 * Updates a custom field's title, description, placeholder or options; admins only. `name` and `type`
 * cannot change (400). Options taken away are taken out of the spaces' values too (a value left with
 * nothing is removed), so every stored value keeps fitting its field. `updatedAt` moves only on a change.
 */
export const updateCustomField = writeOperation({
  name: 'updateCustomField',
  summary: 'Update a custom field of an organization',
  params: one,
  body: { ...customFieldDetails, name: Fixed, type: Fixed },
  response: CustomFieldSchema,
  async run(ctx, { organizationId, fieldName, name: _name, type: _type, ...changes }) {
    const { member } = await requireSettings(ctx, organizationId, 'edit', 'change custom fields');
    const field = await loadCustomField(ctx, organizationId, fieldName);
    if (changes.options) assertOptionsFit(field.type, changes.options);
    const next: Record<string, unknown> = { ...field };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) next[key] = value;
    if (JSON.stringify(next) === JSON.stringify(field)) return presentCustomField(ctx, field, member);
    const updated = { ...next, updatedAt: ctx.now } as CustomFieldRecord;
    await ctx.tx.put(TABLES.customFields, updated);
    if (changes.options) await narrowValues(ctx, updated, changes.options);
    return presentCustomField(ctx, updated, member);
  },
});

/** Takes the options a field no longer has out of its values, through the field's index of values. */
async function narrowValues(ctx: WriteContext, field: CustomFieldRecord, options: readonly string[]): Promise<void> {
  const { items } = await ctx.tx.list(TABLES.customFieldValues, { index: INDEXES.customFieldValuesByField, value: field.id });
  for (const record of items as CustomFieldValueRecord[]) {
    const value = narrowToOptions(record.value, options);
    if (value === undefined) await ctx.tx.delete(TABLES.customFieldValues, record.id);
    else if (JSON.stringify(value) !== JSON.stringify(record.value)) await ctx.tx.put(TABLES.customFieldValues, { ...record, value, updatedAt: ctx.now });
  }
}

/** Deletes a custom field and its value on every space (through the field's index of values); admins only. */
export const deleteCustomField = writeOperation({
  name: 'deleteCustomField',
  summary: 'Delete a custom field of an organization',
  params: one,
  response: null,
  async run(ctx, { organizationId, fieldName }) {
    await requireSettings(ctx, organizationId, 'edit', 'delete custom fields');
    const field = await loadCustomField(ctx, organizationId, fieldName);
    const { items } = await ctx.tx.list(TABLES.customFieldValues, { index: INDEXES.customFieldValuesByField, value: field.id });
    for (const record of items) await ctx.tx.delete(TABLES.customFieldValues, record.id);
    await ctx.tx.delete(TABLES.customFields, field.id);
  },
});
