import type * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { settingsPermissions } from '../permissions.js';
import { INDEXES, TABLES, type CustomFieldRecord, type MemberRecord } from '../records.js';
import type { CustomFieldSchema, CustomFieldType } from './schemas.js';

/** The unique key of a field: names are unique within an organization. */
export const fieldKey = (organizationId: string, name: string) => `${organizationId}/${name}`;

/** The custom field object, with the caller's permissions. */
export function presentCustomField(ctx: Context, field: CustomFieldRecord, caller: MemberRecord): v.InferInput<typeof CustomFieldSchema> {
  return {
    id: field.id,
    name: field.name,
    title: field.title,
    description: field.description,
    placeholder: field.placeholder,
    type: field.type as CustomFieldType,
    ...(field.options && { options: [...field.options] }),
    createdAt: field.createdAt,
    updatedAt: field.updatedAt,
    urls: { location: ctx.urls.api(`/orgs/${field.organizationId}/custom-fields/${field.name}`) },
    permissions: settingsPermissions(caller),
  };
}

/** The field of an organization with this name, if any. */
export async function findCustomField(ctx: Context, organizationId: string, name: string): Promise<CustomFieldRecord | undefined> {
  const { items } = await ctx.tx.list(TABLES.customFields, { index: INDEXES.customFieldsByKey, value: fieldKey(organizationId, name), limit: 1 });
  return items[0] as CustomFieldRecord | undefined;
}

/** Loads the field of an organization with this name, or 404. */
export async function loadCustomField(ctx: Context, organizationId: string, name: string): Promise<CustomFieldRecord> {
  const field = await findCustomField(ctx, organizationId, name);
  if (!field) throw notFound(`No custom field ${name} in organization ${organizationId}`);
  return field;
}

/** Every field of an organization, oldest first (at most MAX_CUSTOM_FIELDS). */
export async function fieldsOf(ctx: Context, organizationId: string): Promise<CustomFieldRecord[]> {
  const { items } = await ctx.tx.list(TABLES.customFields, { index: INDEXES.customFieldsByOrganization, value: organizationId });
  return items as CustomFieldRecord[];
}
