import { FRAME_ANCESTORS } from '../framing.js';

/**
 * The interactive API reference page at `/docs`: Swagger UI (the npm package swagger-ui-dist, served from
 * this server, so the page works offline) pointed at `/v1/openapi.json`, with "Try it out" on and an
 * Authorize button for the bearer token.
 */

/** Reads the files of swagger-ui-dist by name; an adapter supplies it (node-http reads node_modules). */
export interface DocsAssets {
  /** The text of a file of the package, e.g. `swagger-ui-bundle.js`. */
  read(name: string): Promise<string>;
}

/**
 * The files of swagger-ui-dist the page loads, with their content types; nothing else is served. A Map, not
 * an object: a name from the URL must not find `constructor` or `__proto__` on a prototype.
 */
export const DOCS_ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui.css', 'text/css; charset=utf-8'],
]);

/** The page itself; its script is a file of its own so the content security policy can forbid inline scripts. */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>docs-platform API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

/**
 * Starts Swagger UI. The token pasted into "Authorize" stays in the page's memory (persistAuthorization
 * off, so it is not written to localStorage); validatorUrl null keeps the page from calling out.
 */
export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  filter: true,
  displayOperationId: true,
  persistAuthorization: false,
  validatorUrl: null,
});
`;

/**
 * The page's content security policy: scripts and styles only from this server (Swagger UI sets inline
 * styles); requests may go to any origin, as the document's server URL may be a configured public URL;
 * framed as the reader's pages are.
 */
export const DOCS_CSP = `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src *; ${FRAME_ANCESTORS}`;
