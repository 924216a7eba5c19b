import * as v from 'valibot';
import { badRequest } from '../errors.js';
import { assertSpaceLevel } from '../permissions.js';
import { readOperation, writeOperation } from '../operation.js';
import { TABLES, customFieldValueId, type CustomFieldRecord, type CustomFieldValueRecord } from '../records.js';
import { Id } from '../schemas.js';
import { misfit, type StoredValue } from './fit.js';
import { fieldsOf, presentCustomField } from './present.js';
import { CustomFieldValue, SpaceCustomFieldValues } from './schemas.js';
import { loadSpace } from '../spaces/access.js';

/** The most fields one update may set. */
export const MAX_VALUES_PER_UPDATE = 100;

/**
 * Gets a space's custom fields: every field of its organization, oldest first, each with the space's
 * value when it has one. Anyone who can read the space.
 */
export const getSpaceCustomFields = readOperation({
  name: 'getSpaceCustomFields',
  summary: 'Get the custom field values of a space',
  params: { spaceId: Id },
  response: SpaceCustomFieldValues,
  async run(ctx, { spaceId }) {
    const { space, member, level } = await loadSpace(ctx, spaceId);
    assertSpaceLevel(level, 'view', `space ${spaceId}`, 'read its custom fields');
    const entries = [];
    for (const field of await fieldsOf(ctx, space.organizationId)) {
      const record = (await ctx.tx.get(TABLES.customFieldValues, customFieldValueId(space.id, field.id))) as CustomFieldValueRecord | undefined;
      entries.push({ customField: presentCustomField(ctx, field, member), ...(record && { value: copy(record.value) }) });
    }
    return entries;
  },
});

/** A stored value as a fresh JSON value (lists are frozen in the store). */
const copy = (value: StoredValue) => (Array.isArray(value) ? [...value] : (value as string | number | boolean));

/**
 * Sets custom field values of a space, by field name; `value: null` removes one. Every name must be a
 * field of the space's organization and every value must fit its field (400, and nothing changes).
 * Members with the edit level on the space; a locked space's fields can still be set (they describe
 * the space, they are not its content).
 */
export const updateSpaceCustomFields = writeOperation({
  name: 'updateSpaceCustomFields',
  summary: 'Set custom field values of a space',
  params: { spaceId: Id },
  body: {
    values: v.pipe(
      v.record(v.string(), v.object({ value: v.nullable(CustomFieldValue) })),
      v.check((values) => {
        const count = Object.keys(values).length;
        return count >= 1 && count <= MAX_VALUES_PER_UPDATE;
      }, `must set 1 to ${MAX_VALUES_PER_UPDATE} fields`),
    ),
  },
  response: null,
  async run(ctx, { spaceId, values }) {
    // The edit level, without the `live` part of the edit rule: see above.
    const { space, level } = await loadSpace(ctx, spaceId, { purge: ctx.tx });
    assertSpaceLevel(level, 'edit', `space ${spaceId}`, 'set its custom fields');
    const byName = new Map((await fieldsOf(ctx, space.organizationId)).map((field) => [field.name, field]));
    const changes: { field: CustomFieldRecord; value: StoredValue | null }[] = [];
    // Check every entry before writing any, so a bad one changes nothing.
    for (const [name, { value }] of Object.entries(values)) {
      const field = byName.get(name);
      if (!field) throw badRequest(`values.${name}: no custom field named ${JSON.stringify(name)} in this organization`);
      const problem = value === null ? undefined : misfit(field, value);
      if (problem) throw badRequest(`values.${name}.value: ${problem}`);
      changes.push({ field, value });
    }
    for (const { field, value } of changes) {
      const id = customFieldValueId(space.id, field.id);
      if (value === null) {
        await ctx.tx.delete(TABLES.customFieldValues, id);
        continue;
      }
      const existing = (await ctx.tx.get(TABLES.customFieldValues, id)) as CustomFieldValueRecord | undefined;
      if (existing && JSON.stringify(existing.value) === JSON.stringify(value)) continue;
      const record: CustomFieldValueRecord = { id, spaceId: space.id, fieldId: field.id, value, updatedAt: ctx.now };
      await ctx.tx.put(TABLES.customFieldValues, record);
    }
  },
});
