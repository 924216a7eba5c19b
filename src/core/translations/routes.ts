import { route } from '../operation.js';
import { createTranslation, deleteTranslation, getTranslation, listTranslations, updateTranslation } from './operations.js';

/** The translation settings endpoints. */
export const translationRoutes = [
  route('GET', '/v1/orgs/{organizationId}/translations', listTranslations, 200),
  route('POST', '/v1/orgs/{organizationId}/translations', createTranslation, 201),
  route('GET', '/v1/orgs/{organizationId}/translations/{translationSettingsId}', getTranslation, 200),
  route('PUT', '/v1/orgs/{organizationId}/translations/{translationSettingsId}', updateTranslation, 200),
  route('DELETE', '/v1/orgs/{organizationId}/translations/{translationSettingsId}', deleteTranslation, 205),
];
