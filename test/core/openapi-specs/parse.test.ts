import { expect, it } from 'vitest';
import { parseSpecification, schemaValidator } from '../../../src/core/openapi-specs/parse.js';
import { INVENTORY_30, PETSTORE_31 } from '../../http/openapi-sources.js';

/** Reading a document: what is checked is what is stored, and its digest ignores layout and key order. */

it('gives one digest for documents that differ only in layout or key order', async () => {
  const reordered = Object.fromEntries(Object.entries(PETSTORE_31).reverse());
  const [a, b] = await Promise.all([parseSpecification(JSON.stringify(PETSTORE_31)), parseSpecification(JSON.stringify(reordered, null, 2))]);
  expect(a?.digest).toMatch(/^[0-9a-f]{64}$/);
  expect(b?.digest).toBe(a?.digest);
});

it('checks and stores a number past a double\'s range as the null its JSON holds', async () => {
  const text = (value: string) => JSON.stringify({ ...INVENTORY_30, components: { schemas: { Sized: { type: 'string', maxLength: 'SIZE' } } } }).replace('"SIZE"', value);
  expect(await parseSpecification(text('64'))).toBeDefined();
  // JSON.parse reads 1e999 as Infinity, which 3.0's schema takes for a maxLength; what is stored is null, which it does not.
  expect(await parseSpecification(text('null'))).toBeUndefined();
  expect(await parseSpecification(text('1e999'))).toBeUndefined();
  const extension = (value: string) => JSON.stringify({ ...PETSTORE_31, 'x-size': 'SIZE' }).replace('"SIZE"', value);
  const stored = await parseSpecification(extension('1e999'));
  expect(new TextDecoder().decode(stored!.json)).toContain('"x-size":null');
  expect(stored!.digest).toBe((await parseSpecification(extension('null')))!.digest);
});

it('refuses a document whose references name what every object inherits, and leaves Object.prototype alone', async () => {
  // The validator's reference check resolved "__proto__" to Object.prototype, then wrote schema B into it as `polluted`.
  const withSchemas = (schemas: object) => JSON.stringify({ ...PETSTORE_31, components: { ...PETSTORE_31.components, schemas: { ...PETSTORE_31.components.schemas, ...schemas } } });
  const polluting = withSchemas({ A: { $ref: '__proto__', polluted: { $ref: '#/components/schemas/B' } }, B: { type: 'string' } });
  expect(await parseSpecification(polluting)).toBeUndefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  const through = (ref: unknown) => withSchemas({ A: { type: 'object' }, B: { $ref: ref } });
  for (const ref of ['#/components/schemas/A/constructor', '#/components/~1x/toString', ['__proto__'], '#__proto__']) {
    expect(await parseSpecification(through(ref))).toBeUndefined();
  }
  expect(await parseSpecification(through('#/components/schemas/A'))).toBeDefined();
});

it('leaves the validator holding no document once a check is over, valid or not', async () => {
  expect(await parseSpecification(JSON.stringify(PETSTORE_31))).toBeDefined();
  expect((await schemaValidator()).specification).toBeUndefined();
  expect(await parseSpecification(JSON.stringify({ ...PETSTORE_31, paths: 'none' }))).toBeUndefined();
  expect((await schemaValidator()).specification).toBeUndefined();
});
