import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '../src/core/routes.js';

/** One endpoint of the specification, as listed in spec/manifest.json. */
interface ManifestEndpoint {
  /** The part of the specification (seed document) that lists it. */
  part: 1 | 2 | 3;
  method: string;
  /** The path with the seed's `{param}` names, starting with `/v1`. */
  path: string;
  /** The success status the seed gives. */
  status: number;
  summary: string;
  /** Present when the seed says "not shown" and the status comes from the public API. */
  statusSource?: 'public-api';
}

const manifest = JSON.parse(readFileSync(new URL('../spec/manifest.json', import.meta.url), 'utf8')) as {
  source: string;
  endpoints: ManifestEndpoint[];
};

const keyOf = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path}`;
/** The path with every parameter name blanked, to spot a route whose only difference is a parameter name. */
const shapeOf = (endpoint: { method: string; path: string }) => `${endpoint.method} ${endpoint.path.replace(/\{[^}]+\}/g, '{}')}`;

const bySpecKey = new Map(manifest.endpoints.map((endpoint) => [keyOf(endpoint), endpoint]));
const bySpecShape = new Map(manifest.endpoints.map((endpoint) => [shapeOf(endpoint), endpoint]));

describe('spec/manifest.json', () => {
  it('lists each endpoint once, with a success status the API uses', () => {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const endpoint of manifest.endpoints) {
      const key = keyOf(endpoint);
      if (seen.has(key)) problems.push(`${key}: listed twice`);
      seen.add(key);
      if (![200, 201, 204, 205].includes(endpoint.status)) problems.push(`${key}: status ${endpoint.status} is not 200, 201, 204 or 205`);
      if (![1, 2, 3].includes(endpoint.part)) problems.push(`${key}: part ${endpoint.part} is not 1, 2 or 3`);
      if (!/^\/v1\//.test(endpoint.path)) problems.push(`${key}: path does not start with /v1/`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the route table against the manifest', () => {
  it('serves every specified route with the path and status of the seed', () => {
    const problems: string[] = [];
    for (const route of routes.filter((r) => !r.extension)) {
      const key = keyOf(route);
      const endpoint = bySpecKey.get(key);
      if (!endpoint) {
        const similar = bySpecShape.get(shapeOf(route));
        problems.push(
          similar
            ? `${key}: the seed names its parameters ${similar.path}`
            : `${key}: not in the specification; fix the path or mark the route { extension: true }`,
        );
      } else if (endpoint.status !== route.status) {
        problems.push(`${key}: answers ${route.status}, the seed (part ${endpoint.part}) says ${endpoint.status}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('marks as extensions only routes the specification does not list', () => {
    const problems = routes
      .filter((route) => route.extension)
      .filter((route) => bySpecShape.has(shapeOf(route)))
      .map((route) => `${keyOf(route)}: is in the specification (${keyOf(bySpecShape.get(shapeOf(route))!)}), so it is not an extension`);
    expect(problems).toEqual([]);
  });

  it('reports how much of the specification is implemented', () => {
    const served = new Set(routes.filter((route) => !route.extension).map(keyOf));
    const parts = [1, 2, 3].map((part) => {
      const listed = manifest.endpoints.filter((endpoint) => endpoint.part === part);
      const done = listed.filter((endpoint) => served.has(keyOf(endpoint)));
      return `part ${part}: ${done.length} of ${listed.length}`;
    });
    const implemented = manifest.endpoints.filter((endpoint) => served.has(keyOf(endpoint))).length;
    const extensions = routes.filter((route) => route.extension).length;
    console.log(
      `manifest: ${implemented} of ${manifest.endpoints.length} endpoints implemented (${parts.join(', ')}); ${extensions} extension routes`,
    );
    expect(implemented).toBeLessThanOrEqual(manifest.endpoints.length);
  });
});
