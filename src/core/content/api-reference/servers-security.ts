import type { ApiSecurityRequirement, ApiSecurityScheme, ApiServer } from './model.js';
import { isObject } from './refs.js';

/**
 * Where an API answers and how a client authenticates, from OpenAPI 3 (`servers`, `securitySchemes`) or
 * Swagger 2.0 (`schemes`, `host`, `basePath`, `securityDefinitions`).
 */

/** How many servers, schemes and scopes are shown at most. */
const MAX_LISTED = 50;

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** A server's URL with its `{variables}` filled with their defaults. */
function serverOf(server: Record<string, any>): ApiServer | undefined {
  if (typeof server.url !== 'string') return undefined;
  const variables = isObject(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (whole: string, name: string) => {
    const fill = isObject(variables[name]) ? variables[name].default : undefined;
    return typeof fill === 'string' || typeof fill === 'number' ? String(fill) : whole;
  });
  return { url, ...(text(server.description) && { description: text(server.description) }) };
}

/** The servers a list names (an OpenAPI 3 `servers`), or none. */
export function serversOf(list: unknown): ApiServer[] {
  return Array.isArray(list) ? list.slice(0, MAX_LISTED).filter(isObject).map(serverOf).filter((server): server is ApiServer => server !== undefined) : [];
}

/** The document's servers: OpenAPI 3's, or Swagger 2.0's scheme, host and base path. */
export function documentServers(document: Record<string, any>): ApiServer[] {
  if (typeof document.swagger !== 'string') return serversOf(document.servers);
  const basePath = typeof document.basePath === 'string' ? document.basePath : '';
  if (typeof document.host !== 'string') return basePath ? [{ url: basePath }] : [];
  const schemes = Array.isArray(document.schemes) && document.schemes.length > 0 ? document.schemes.filter((scheme: unknown) => typeof scheme === 'string') : ['https'];
  return schemes.slice(0, MAX_LISTED).map((scheme: string) => ({ url: `${scheme}://${document.host}${basePath}` }));
}

/** What a client sends for a scheme, in words. */
function summaryOf(scheme: Record<string, any>, type: string): string {
  switch (type) {
    case 'apiKey':
      return `${text(scheme.in) ?? 'header'} ${text(scheme.name) ?? ''}`.trim();
    case 'http': {
      const kind = (text(scheme.scheme) ?? '').toLowerCase();
      if (kind === 'bearer') return `Authorization: Bearer <token>${text(scheme.bearerFormat) ? ` (${scheme.bearerFormat})` : ''}`;
      if (kind === 'basic') return 'Authorization: Basic <credentials>';
      return `Authorization: ${text(scheme.scheme) ?? '<credentials>'}`;
    }
    case 'oauth2':
      return 'OAuth 2.0';
    case 'openIdConnect':
      return `OpenID Connect${text(scheme.openIdConnectUrl) ? `: ${scheme.openIdConnectUrl}` : ''}`;
    case 'mutualTLS':
      return 'Mutual TLS';
    default:
      return type;
  }
}

/** The scopes of a flow (`{name: description}`). */
const scopesOf = (scopes: unknown) => (isObject(scopes) ? Object.entries(scopes).slice(0, MAX_LISTED).map(([name, description]) => ({ name, description: typeof description === 'string' ? description : '' })) : []);

/** An OAuth 2 scheme's flows: OpenAPI 3's `flows`, or Swagger 2.0's one `flow`. */
function flowsOf(scheme: Record<string, any>): ApiSecurityScheme['flows'] {
  const urls = (flow: Record<string, any>) => ['authorizationUrl', 'tokenUrl', 'refreshUrl'].map((key) => text(flow[key])).filter((url): url is string => url !== undefined);
  if (isObject(scheme.flows)) return Object.entries(scheme.flows).filter(([, flow]) => isObject(flow)).map(([kind, flow]) => ({ kind, urls: urls(flow), scopes: scopesOf(flow.scopes) }));
  if (typeof scheme.flow === 'string') return [{ kind: scheme.flow, urls: urls(scheme), scopes: scopesOf(scheme.scopes) }];
  return [];
}

/** The security schemes a document declares. */
export function securitySchemesOf(document: Record<string, any>): ApiSecurityScheme[] {
  const declared = isObject(document.components?.securitySchemes) ? document.components.securitySchemes : isObject(document.securityDefinitions) ? document.securityDefinitions : {};
  return Object.entries<unknown>(declared)
    .slice(0, MAX_LISTED)
    .filter((entry): entry is [string, Record<string, any>] => isObject(entry[1]))
    .map(([name, scheme]) => {
      // Swagger 2.0's `basic` is OpenAPI 3's http scheme `basic`.
      const type = scheme.type === 'basic' ? 'http' : String(scheme.type ?? '');
      const summary = summaryOf(scheme.type === 'basic' ? { ...scheme, scheme: 'basic' } : scheme, type);
      return { name, type, ...(text(scheme.description) && { description: text(scheme.description) }), summary, flows: type === 'oauth2' ? flowsOf(scheme) : [] };
    });
}

/** A `security` list as requirements: each an alternative naming its schemes and their scopes (`{}`: none needed). */
export function requirementsOf(list: unknown): ApiSecurityRequirement[] {
  if (!Array.isArray(list)) return [];
  return list.slice(0, MAX_LISTED).filter(isObject).map((requirement) => ({
    schemes: Object.entries(requirement).map(([name, scopes]) => ({ name, scopes: Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string').slice(0, MAX_LISTED) : [] })),
  }));
}
