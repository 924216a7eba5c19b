import { route } from '../operation.js';
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField } from './fields.js';
import { getSpaceCustomFields, updateSpaceCustomFields } from './values.js';

/** The custom field endpoints: an organization's fields, and a space's values of them. */
export const customFieldRoutes = [
  route('GET', '/v1/spaces/{spaceId}/custom-fields', getSpaceCustomFields, 200),
  route('PATCH', '/v1/spaces/{spaceId}/custom-fields', updateSpaceCustomFields, 204),
  route('GET', '/v1/orgs/{organizationId}/custom-fields', listCustomFields, 200),
  route('POST', '/v1/orgs/{organizationId}/custom-fields', createCustomField, 201),
  route('GET', '/v1/orgs/{organizationId}/custom-fields/{fieldName}', getCustomField, 200),
  route('PATCH', '/v1/orgs/{organizationId}/custom-fields/{fieldName}', updateCustomField, 200),
  route('DELETE', '/v1/orgs/{organizationId}/custom-fields/{fieldName}', deleteCustomField, 204),
];
