import { route } from '../operation.js';
import { createOpenAPISpec, deleteOpenAPISpec, getOpenAPISpec, listOpenAPISpecs, putOpenAPISpec } from './specs.js';
import {
  getLatestOpenAPISpecVersion,
  getLatestOpenAPISpecVersionContent,
  getOpenAPISpecVersion,
  getOpenAPISpecVersionContent,
  getOpenAPISpecVersionDocument,
  listOpenAPISpecVersions,
} from './versions.js';

/** The path of one specification. */
const spec = '/v1/orgs/{organizationId}/openapi/{specSlug}';

/** The OpenAPI specification and version endpoints, and the document a version's `url` serves (ours). */
export const openAPISpecRoutes = [
  route('GET', '/v1/orgs/{organizationId}/openapi', listOpenAPISpecs, 200),
  route('POST', '/v1/orgs/{organizationId}/openapi', createOpenAPISpec, 201),
  route('GET', spec, getOpenAPISpec, 200),
  route('PUT', spec, putOpenAPISpec, 200),
  route('DELETE', spec, deleteOpenAPISpec, 205),
  route('GET', `${spec}/versions`, listOpenAPISpecVersions, 200),
  route('GET', `${spec}/versions/latest`, getLatestOpenAPISpecVersion, 200),
  route('GET', `${spec}/versions/latest/content`, getLatestOpenAPISpecVersionContent, 200),
  route('GET', `${spec}/versions/{versionId}`, getOpenAPISpecVersion, 200),
  route('GET', `${spec}/versions/{versionId}/content`, getOpenAPISpecVersionContent, 200),
  route('GET', `${spec}/versions/{versionId}/openapi.json`, getOpenAPISpecVersionDocument, 200, { extension: true }),
];
