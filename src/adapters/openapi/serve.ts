import { errorBody } from '../../core/errors.js';
import type { Route } from '../../core/operation.js';
import type { PlainRequest, PlainResponse } from '../plain.js';
import { DOCS_ASSET_TYPES, DOCS_CSP, DOCS_HTML, DOCS_INIT_JS, type DocsAssets } from './docs-page.js';
import { openApiDocument } from './document.js';
import { hashSource } from '../../reader/script.js';
import { matchesEtag } from '../if-none-match.js';

/** The path of the OpenAPI document. */
export const OPENAPI_PATH = '/v1/openapi.json';
/** The path of the API reference page. */
export const DOCS_PATH = '/docs';

function plain(status: number, type: string, body: string, headers: Record<string, string> = {}): PlainResponse {
  return { status, headers: { 'content-type': type, 'x-content-type-options': 'nosniff', ...headers }, body };
}

function failure(status: number, message: string, headers: Record<string, string> = {}): PlainResponse {
  return plain(status, 'application/json; charset=utf-8', JSON.stringify(errorBody(status, message)), headers);
}

/**
 * Serves the self-description of the API, which needs no token: `GET /v1/openapi.json` and the reference
 * page under `/docs`. Answers undefined, at once, for every other path, which the pipeline then routes as
 * usual. Without `assets` (the Fetch adapter, unless given some) `/docs` is a 404 that says where to find it.
 */
export function createReferenceHandler(source: { routes: readonly Route[]; baseUrl?: string }, assets?: DocsAssets) {
  const etags = new Map<string, Promise<string>>();

  /**
   * A file of the page, with an ETag of its content (hashed once per name: the files do not change while the
   * server runs), so that a browser revalidates with a 304 and its compressed bytes are kept (compression.ts).
   */
  async function file(request: PlainRequest, name: string, type: string, text: string, headers: Record<string, string> = {}): Promise<PlainResponse> {
    let etag = etags.get(name);
    if (!etag) etags.set(name, (etag = hashSource(text).then((source) => `"${source.slice('\'sha256-'.length, -1)}"`)));
    const tagged = { ...headers, etag: await etag };
    if (matchesEtag(request.headers['if-none-match'], tagged.etag)) return { status: 304, headers: tagged };
    return plain(200, type, text, tagged);
  }

  async function serve(request: PlainRequest, path: string): Promise<PlainResponse> {
    if (request.method !== 'GET') return failure(405, `${request.method} is not allowed on ${path}; use GET`, { allow: 'GET' });
    if (path === OPENAPI_PATH) {
      const servers = [{ url: source.baseUrl ?? request.origin ?? '/' }];
      return plain(200, 'application/json; charset=utf-8', JSON.stringify({ ...openApiDocument(source.routes), servers }));
    }
    if (!assets) {
      return failure(
        404,
        `The API reference page needs the swagger-ui-dist files: the node:http adapter (npm start) serves it, or pass { docsAssets: swaggerUiAssets() } to createFetchHandler; the OpenAPI document is at ${OPENAPI_PATH}`,
      );
    }
    if (path === DOCS_PATH) return file(request, '', 'text/html; charset=utf-8', DOCS_HTML, { 'content-security-policy': DOCS_CSP });
    const name = path.slice(DOCS_PATH.length + 1);
    if (name === 'init.js') return file(request, name, 'text/javascript; charset=utf-8', DOCS_INIT_JS);
    const type = DOCS_ASSET_TYPES.get(name);
    if (!type) return failure(404, `No file ${path}`);
    return file(request, name, type, await assets.read(name), { 'cache-control': 'public, max-age=86400' });
  }

  // Synchronous for the API's own paths: the hot path pays one comparison, not a promise.
  return function serveReference(request: PlainRequest): Promise<PlainResponse> | undefined {
    const path = request.path.length > 1 && request.path.endsWith('/') ? request.path.slice(0, -1) : request.path;
    if (path !== OPENAPI_PATH && path !== DOCS_PATH && !path.startsWith(`${DOCS_PATH}/`)) return undefined;
    return serve(request, path);
  };
}
