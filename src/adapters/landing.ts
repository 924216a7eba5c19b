import { PACKAGE } from '../package-info.js';
import { hashSource } from '../reader/script.js';
import { FRAME_ANCESTORS } from './framing.js';
import { DOCS_PATH, OPENAPI_PATH } from './openapi/serve.js';
import { HEALTH_PATH, READY_PATH } from './health.js';
import type { PlainRequest, PlainResponse } from './plain.js';

/**
 * The answer at `/`, the first thing a person who opens the server in a browser sees: a small page with
 * the server's name and version and links to what it serves, or the same as JSON for a client that prefers
 * `application/json`. It links only what this pipeline serves (`/docs` needs the reference page's files,
 * the probes need `health`).
 */

/** What the landing answer links to; absent where this pipeline does not serve it. */
export interface LandingLinks {
  readonly docs?: string;
  readonly openapi: string;
  readonly health?: string;
  readonly ready?: string;
}

const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1f2328}code{font-size:.9em}';

/**
 * How much an Accept header wants a media type: the quality of the most specific range that names it (0
 * when none does), and how specific that range is (2 the type itself, 1 `type/*`, 0 `*\/*`, -1 none).
 */
function preference(accept: string, type: string): [quality: number, specificity: number] {
  let specificity = -1;
  let quality = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [range, ...params] = part.split(';').map((item) => item.trim());
    const rank = range === type ? 2 : range === `${type.split('/')[0]}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (rank <= specificity) continue;
    specificity = rank;
    const given = params.find((param) => param.startsWith('q='));
    quality = given === undefined ? 1 : Number(given.slice(2)) || 0;
  }
  return [quality, specificity];
}

/**
 * Whether a request prefers JSON to HTML: a higher quality, or the same and named more specifically
 * (`application/json, *\/*` is a JSON client's). A browser, and a client that sends no Accept or `*\/*`, get the page.
 */
export function prefersJson(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const [json, jsonRank] = preference(accept, 'application/json');
  const [html, htmlRank] = preference(accept, 'text/html');
  return json > html || (json === html && json > 0 && jsonRank > htmlRank);
}

/** The page: no script, one style (allowed by its hash). */
function page(links: LandingLinks): string {
  const item = (href: string | undefined, text: string) => (href === undefined ? '' : `\n    <li><a href="${href}">${text}</a> <code>${href}</code></li>`);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${PACKAGE.name} ${PACKAGE.version}</title>
  <style>${STYLE}</style>
</head>
<body>
  <h1>${PACKAGE.name}</h1>
  <p>Version ${PACKAGE.version}. This server answers the documentation platform's API under <code>/v1</code>; requests send <code>Authorization: Bearer &lt;token&gt;</code>.</p>
  <ul>${item(links.docs, 'API reference')}${item(links.openapi, 'OpenAPI document')}${item(links.health, 'Health')}${item(links.ready, 'Readiness')}
  </ul>
</body>
</html>
`;
}

/** The landing answer of a pipeline that serves the reference page (`docs`) and the probes (`health`) or not. */
export function createLanding(options: { docs: boolean; health: boolean; baseUrl?: string }) {
  const links: LandingLinks = {
    ...(options.docs && { docs: DOCS_PATH }),
    openapi: OPENAPI_PATH,
    ...(options.health && { health: HEALTH_PATH, ready: READY_PATH }),
  };
  const html = page(links);
  let csp: Promise<string> | undefined;
  const policy = () =>
    (csp ??= hashSource(STYLE).then((style) =>
      [`default-src 'none'`, `style-src ${style}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'", FRAME_ANCESTORS].join('; '),
    ));

  return async function landing(request: PlainRequest): Promise<PlainResponse> {
    const common = { 'x-content-type-options': 'nosniff', vary: 'accept' };
    if (prefersJson(request.headers.accept)) {
      const base = (options.baseUrl ?? request.origin ?? '').replace(/\/+$/, '');
      const absolute = Object.fromEntries(Object.entries(links).map(([name, path]) => [name, `${base}${path}`]));
      return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...common }, body: JSON.stringify({ ...PACKAGE, links: absolute }) };
    }
    return {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8', ...common, 'content-security-policy': await policy(), 'referrer-policy': 'strict-origin-when-cross-origin' },
      body: html,
    };
  };
}
