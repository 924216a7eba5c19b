import type { ApiOperation, ApiSecurityScheme } from './model.js';

/**
 * An operation's request as a curl command, as Scalar and Redoc show one beside it: its method and first
 * server's URL, its required path, query and header parameters (their example, default or a placeholder),
 * the credentials of the first security it accepts (as placeholders), and its first JSON example body.
 */

/** A text quoted for a POSIX shell. */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A parameter's value in a sample: its example or default as written (strings unquoted), else a placeholder. */
function valueOf(parameter: ApiOperation['parameters'][number]): string {
  const written = parameter.example ?? parameter.schema.default;
  if (written === undefined) return `<${parameter.name}>`;
  try {
    const value: unknown = JSON.parse(written);
    return typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return written;
  }
}

/** What the credentials of a scheme add to a request: a header, a query parameter, or curl's user option. */
function credentials(scheme: ApiSecurityScheme | undefined, source: Record<string, any> | undefined): { header?: string; query?: string; user?: string } {
  if (!scheme) return {};
  if (scheme.type === 'apiKey' && source) {
    const name = typeof source.name === 'string' ? source.name : 'api_key';
    if (source.in === 'query') return { query: `${encodeURIComponent(name)}=<api key>` };
    if (source.in === 'cookie') return { header: `Cookie: ${name}=<api key>` };
    return { header: `${name}: <api key>` };
  }
  if (scheme.type === 'http' && /^basic$/i.test(String(source?.scheme ?? (source?.type === 'basic' ? 'basic' : '')))) return { user: '<username>:<password>' };
  if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { header: 'Authorization: Bearer <token>' };
  return {};
}

/** The declared security schemes by name, as the document writes them (for what the model keeps in words only). */
export const declaredSchemes = (document: Record<string, any>): Record<string, any> => document.components?.securitySchemes ?? document.securityDefinitions ?? {};

/** An operation's request as a curl command. */
export function requestSample(operation: ApiOperation, schemes: readonly ApiSecurityScheme[], declared: Record<string, any>): string {
  const server = (operation.servers[0]?.url ?? '').replace(/\/+$/, '');
  const required = operation.parameters.filter((parameter) => parameter.required || parameter.in === 'path');
  const path = operation.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = required.find((found) => found.in === 'path' && found.name === name);
    return parameter ? encodeURIComponent(valueOf(parameter)).replace(/%3C/g, '<').replace(/%3E/g, '>') : whole;
  });
  const firstScheme = operation.security[0]?.schemes[0];
  const scheme = firstScheme && schemes.find((found) => found.name === firstScheme.name);
  const auth = credentials(scheme, firstScheme && typeof declared[firstScheme.name] === 'object' ? declared[firstScheme.name] : undefined);
  const query = [...required.filter((parameter) => parameter.in === 'query').map((parameter) => `${encodeURIComponent(parameter.name)}=${encodeURIComponent(valueOf(parameter))}`), ...(auth.query ? [auth.query] : [])];
  const lines = [`curl -X ${operation.method} ${quoted(`${server}${path}${query.length > 0 ? `?${query.join('&')}` : ''}`)}`];
  if (auth.header) lines.push(`-H ${quoted(auth.header)}`);
  if (auth.user) lines.push(`-u ${quoted(auth.user)}`);
  for (const header of required.filter((parameter) => parameter.in === 'header')) lines.push(`-H ${quoted(`${header.name}: ${valueOf(header)}`)}`);
  const media = operation.requestBody?.contents.find((found) => found.examples.length > 0) ?? operation.requestBody?.contents[0];
  if (media) lines.push(`-H ${quoted(`Content-Type: ${media.mediaType}`)}`);
  if (media?.examples[0]) lines.push(`-d ${quoted(media.examples[0].value)}`);
  return lines.join(' \\\n  ');
}
