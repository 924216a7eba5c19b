import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/adapters/openapi/document.js';
import { routes } from '../../src/core/routes.js';
import { compareRequired, compareSummaries, summarize } from './compare.js';

/**
 * Our generated document against the public API's (`@gitbook/api`, spec/openapi.json): for every operation
 * both have (same method, same path once `/v1` and parameter names are set aside), no field both response
 * bodies define may disagree: ours must not send a type or an enum value theirs does not allow. The
 * differences the specification requires are listed, each with its reason, in allowed-differences.json.
 * Page objects are also compared variant by variant (document, group, link, computed; subpages too): each
 * field the public API requires must be one we always send.
 */

interface Allowed {
  /** One operation, or `operations`: several with the same difference. */
  operation?: string;
  operations?: string[];
  field: string;
  reason: string;
}

const require = createRequire(import.meta.url);
const theirs = JSON.parse(readFileSync(require.resolve('@gitbook/api/spec/openapi.json'), 'utf8'));
const ours = buildOpenApiDocument(routes) as unknown as Record<string, any>;
const allowed = (JSON.parse(readFileSync(new URL('./allowed-differences.json', import.meta.url), 'utf8')) as { differences: Allowed[] }).differences;

const shape = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/^\/v1(?=\/)/, '').replace(/\{[^}]+\}/g, '{}')}`;

/** Their operations by method and path shape. */
const theirOperations = new Map<string, any>();
for (const [path, item] of Object.entries<any>(theirs.paths)) {
  for (const [method, operation] of Object.entries<any>(item)) {
    if (['get', 'put', 'post', 'patch', 'delete'].includes(method)) theirOperations.set(shape(method, path), operation);
  }
}

/** The JSON schema of a success response: the same status when they have it, else their first 2xx with a body. */
function theirSuccessSchema(operation: any, status: string): unknown {
  const responses = operation.responses ?? {};
  const candidates = [status, ...Object.keys(responses).filter((code) => /^2\d\d$/.test(code))];
  for (const code of candidates) {
    let response = responses[code];
    if (response?.$ref) response = theirs.components.responses[response.$ref.split('/').pop()];
    const schema = response?.content?.['application/json']?.schema;
    if (schema) return schema;
  }
  return undefined;
}

/** The operations that answer page objects: one page by id or path, and the page lists; space and change request alike. */
const PAGE_OPERATIONS = new Set([
  'getSpacePage',
  'getChangeRequestPage',
  'getSpacePageByPath',
  'getChangeRequestPageByPath',
  'listSpacePages',
  'listChangeRequestPages',
]);

/**
 * Where a page's required fields are checked: the page's own fields and objects (layout, urls, git,
 * computed, ...), not its JSON body (`document`, format=document), a format of its own whose blocks our
 * schema declares loosely (test/content covers it).
 */
const PAGE_BODY = new Set(['document']);

/** A subpage's difference reads as its page type's: `pages[][type="link"].kind` → `[type="link"].kind`. */
const pageField = (field: string) => field.replace(/^.*pages\[\](?=\[type=)/, '');

interface Found {
  operation: string;
  field: string;
  ours: string;
  theirs: string;
}

const pageOperations = new Set<string>();

function differences(): { compared: number; found: Found[] } {
  const found: Found[] = [];
  let compared = 0;
  for (const route of routes) {
    const other = theirOperations.get(shape(route.method, route.path));
    const operation = ours.paths[route.path][route.method.toLowerCase()];
    const schema = operation.responses[String(route.status)].content?.['application/json']?.schema;
    const theirSchema = other && theirSuccessSchema(other, String(route.status));
    if (!schema || !theirSchema) continue;
    compared++;
    for (const difference of compareSummaries(summarize(schema, ours), summarize(theirSchema as object, theirs))) {
      found.push({ operation: route.operation.name, ...difference });
    }
    if (PAGE_OPERATIONS.has(route.operation.name)) {
      pageOperations.add(route.operation.name);
      const seen = new Set<string>();
      for (const difference of compareRequired(schema, theirSchema as object, ours, theirs, PAGE_BODY)) {
        const field = pageField(difference.field);
        if (seen.has(field)) continue;
        seen.add(field);
        found.push({ operation: route.operation.name, ...difference, field });
      }
    }
  }
  return { compared, found };
}

describe('the generated document against the public API document', () => {
  const { compared, found } = differences();
  const names = (entry: Allowed) => entry.operations ?? [entry.operation!];
  const isAllowed = (difference: Found) => allowed.some((entry) => names(entry).includes(difference.operation) && entry.field === difference.field);

  it('compares the response bodies of the operations both have', () => {
    console.log(`public API comparison: ${compared} operations compared, ${found.length} differences found`);
    expect(compared).toBeGreaterThan(0);
  });

  it('compares the page objects of every page read and page list', () => {
    expect([...pageOperations].sort()).toEqual([...PAGE_OPERATIONS].sort());
  });

  it('finds no difference in type, enum values or required fields beyond the allowed ones', () => {
    const unexpected = found
      .filter((difference) => !isAllowed(difference))
      .map((difference) => `${difference.operation} ${difference.field}: ours ${difference.ours}, theirs ${difference.theirs}`);
    expect(unexpected).toEqual([]);
  });

  it('lists only differences that still exist, each with a reason', () => {
    const stale = allowed
      .flatMap((entry) => names(entry).map((operation) => ({ operation, field: entry.field })))
      .filter((entry) => !found.some((difference) => difference.operation === entry.operation && difference.field === entry.field))
      .map((entry) => `${entry.operation} ${entry.field}: no longer differs; remove it from allowed-differences.json`);
    const unexplained = allowed.filter((entry) => entry.reason.trim().length < 10).map((entry) => `${names(entry).join(', ')} ${entry.field}: give the reason`);
    expect([...stale, ...unexplained]).toEqual([]);
  });
});
