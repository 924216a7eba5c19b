import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite } from './harness.js';
import { BETA_SCHEMA, siteHelpers } from './site-helpers.js';

/** The adaptive schema endpoints: 404 until set, the draft-07 shape of Part 3, and conditions checked against it. */

const claim = (description = 'A claim.') => ({ type: 'boolean', description });
const schemaOf = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false });

httpSuite('site adaptive schema', (h) => {
  const { site, ok, createSite, spaces, addSection, stored, setSchema } = siteHelpers(h);
  const schema = (siteId: string) => `${site(siteId)}/adaptive-schema`;

  it('answers 404 until a schema is set, then returns it; PUT replaces it and moves updatedAt', async () => {
    const created = await createSite();
    const missing = await h().owner.get(schema(created.id));
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toMatch(new RegExp(`^No visitor attributes schema found for site ${created.id}`));
    h().clock.advance(60_000);
    const response = await h().owner.put(schema(created.id), { jsonSchema: BETA_SCHEMA });
    expect(response.status).toBe(200);
    const expected = {
      object: 'site-adaptive-schema',
      jsonSchema: {
        ...BETA_SCHEMA,
        properties: { ...BETA_SCHEMA.properties, unsigned: { ...BETA_SCHEMA.properties.unsigned, description: 'Unsigned claims of the site visitor.' } },
      },
      updatedAt: '2026-03-01T10:01:01.000Z',
    };
    expect(response.body).toEqual(expected);
    expect(ok(await h().owner.get(schema(created.id)))).toEqual(expected);
    h().clock.advance(60_000);
    const replaced = ok(await h().owner.put(schema(created.id), { jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema', ...schemaOf({ isBeta: claim() }) } }));
    expect(replaced).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...schemaOf({ isBeta: claim() }) },
      updatedAt: '2026-03-01T10:02:01.000Z',
    });
    expect(ok(await h().owner.get(schema(created.id)))).toEqual(replaced);
    // Another site still has none.
    expect((await h().owner.get(schema((await createSite()).id))).status).toBe(404);
  });

  it('accepts the shapes of Part 3: no claims, unsigned claims only, claim names with _ $ and -', async () => {
    const created = await createSite();
    const accepted = [
      schemaOf({}),
      schemaOf({ unsigned: { type: 'object', properties: {}, additionalProperties: false } }),
      schemaOf({ unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { $flag: claim() }, additionalProperties: false } }),
      schemaOf({ is_beta: claim(''), 'plan-pro': claim(), _x1: claim('d'.repeat(1024)), [`a${'b'.repeat(99)}`]: claim() }),
      { $schema: 'http://json-schema.org/draft-07/schema#', ...schemaOf({ a: claim() }) },
    ];
    for (const jsonSchema of accepted) {
      const response = await h().owner.put(schema(created.id), { jsonSchema });
      expect(response.status, JSON.stringify(jsonSchema)).toBe(200);
      expect(Object.keys(response.body.jsonSchema.properties).sort()).toEqual(Object.keys(jsonSchema.properties).sort());
    }
  });

  it('refuses anything but the draft-07 shape of Part 3 with 400, and stores nothing', async () => {
    const created = await createSite();
    await setSchema(created.id);
    const before = await stored();
    const unsigned = (value: Record<string, unknown>) => schemaOf({ unsigned: { type: 'object', properties: {}, additionalProperties: false, ...value } });
    await expectRefusals((body) => h().owner.put(schema(created.id), body), [
      [{}, /^jsonSchema: is required$/],
      [{ jsonSchema: 'object' }, /^jsonSchema: must be a JSON Schema/],
      [{ jsonSchema: [] }, /^jsonSchema\.type: is required$/],
      [{ jsonSchema: { ...schemaOf({}), properties: [] } }, /^jsonSchema\.properties: must be an object of claims, not an array$/],
      [{ jsonSchema: schemaOf({ unsigned: { type: 'object', properties: [], additionalProperties: false } }) }, /^jsonSchema\.properties\.unsigned\.properties: must be an object of claims/],
      [{ jsonSchema: null }, /^jsonSchema: /],
      [{ jsonSchema: { type: 'object', properties: {} } }, /^jsonSchema\.additionalProperties: is required$/],
      [{ jsonSchema: { ...schemaOf({}), additionalProperties: true } }, /^jsonSchema\.additionalProperties: must be false/],
      [{ jsonSchema: { ...schemaOf({}), type: 'array' } }, /^jsonSchema\.type: must be "object"/],
      [{ jsonSchema: { type: 'object', additionalProperties: false } }, /^jsonSchema\.properties: /],
      [{ jsonSchema: { ...schemaOf({}), title: 'Visitors' } }, /^jsonSchema\.title: /],
      [{ jsonSchema: { ...schemaOf({}), required: ['isBeta'] } }, /^jsonSchema\.required: /],
      [{ jsonSchema: { ...schemaOf({}), $schema: 'https://json-schema.org/draft/2020-12/schema' } }, /^jsonSchema\.\$schema: must be http:\/\/json-schema\.org\/draft-07\/schema#/],
      [{ jsonSchema: schemaOf({ plan: { type: 'string', description: 'Plan' } }) }, /^jsonSchema\.properties\.plan\.type: must be "boolean", not "string"$/],
      [{ jsonSchema: schemaOf({ isBeta: { type: 'boolean' } }) }, /^jsonSchema\.properties\.isBeta\.description: is required$/],
      [{ jsonSchema: schemaOf({ isBeta: { ...claim(), default: false } }) }, /^jsonSchema\.properties\.isBeta\.default: /],
      [{ jsonSchema: schemaOf({ isBeta: true }) }, /^jsonSchema\.properties\.isBeta: must be a claim/],
      [{ jsonSchema: schemaOf({ isBeta: claim('d'.repeat(1025)) }) }, /^jsonSchema\.properties\.isBeta\.description: must be at most 1024 characters$/],
      [{ jsonSchema: schemaOf({ '1x': claim() }) }, /^jsonSchema\.properties: claim names must be /],
      [{ jsonSchema: schemaOf({ 'a b': claim() }) }, /^jsonSchema\.properties: claim names must be /],
      [{ jsonSchema: schemaOf({ '': claim() }) }, /^jsonSchema\.properties: claim names must be /],
      [{ jsonSchema: schemaOf({ [`a${'b'.repeat(100)}`]: claim() }) }, /^jsonSchema\.properties: claim names must be /],
      [{ jsonSchema: schemaOf({ constructor: claim() }) }, /^jsonSchema\.properties: claim names must be /],
      [{ jsonSchema: unsigned({ additionalProperties: true }) }, /^jsonSchema\.properties\.unsigned\.additionalProperties: must be false/],
      [{ jsonSchema: unsigned({ type: 'array' }) }, /^jsonSchema\.properties\.unsigned\.type: /],
      [{ jsonSchema: unsigned({ description: 'Other words' }) }, /^jsonSchema\.properties\.unsigned\.description: must be "Unsigned claims of the site visitor\."/],
      [{ jsonSchema: unsigned({ properties: { x: { type: 'number', description: 'n' } } }) }, /^jsonSchema\.properties\.unsigned\.properties\.x\.type: must be "boolean", not "number"$/],
      [{ jsonSchema: unsigned({ properties: { 'no way': claim() } }) }, /^jsonSchema\.properties\.unsigned\.properties: claim names must be /],
      [{ jsonSchema: unsigned({ extra: 1 }) }, /^jsonSchema\.properties\.unsigned\.extra: /],
      [{ jsonSchema: schemaOf({ unsigned: claim() }) }, /^jsonSchema\.properties\.unsigned/],
    ]);
    // A claim named __proto__ arrives as raw JSON.
    const proto = await h().request('PUT', schema(created.id), {
      token: h().owner.token,
      rawBody: '{"jsonSchema":{"type":"object","properties":{"__proto__":{"type":"boolean","description":"x"}},"additionalProperties":false}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    expect(proto.body.error.message).toMatch(/^jsonSchema\.properties: claim names must be /);
    expect(await stored()).toEqual(before);
  });

  it('refuses a schema that would leave a condition naming a claim it drops, and keeps the old one', async () => {
    const [a, b] = await spaces('A', 'B');
    const created = await createSite();
    const section = await addSection(created.id, a);
    const other = await addSection(created.id, b);
    await setSchema(created.id);
    ok(await h().owner.patch(`${site(created.id)}/sections/${section.id}`, { condition: 'visitor.claims.isBeta' }));
    ok(await h().owner.patch(`${site(created.id)}/site-spaces/${other.siteSpaces[0].id}`, { condition: '!visitor.claims.unsigned.fromCampaign' }));
    const before = await stored();
    const dropsSigned = await h().owner.put(schema(created.id), { jsonSchema: schemaOf({ isStaff: claim(), unsigned: BETA_SCHEMA.properties.unsigned }) });
    expect(dropsSigned.status).toBe(400);
    expect(dropsSigned.body.error.message).toBe(
      `jsonSchema: the condition of section ${section.id} would no longer hold: visitor.claims.isBeta is not a claim of the site's adaptive schema; change that condition first`,
    );
    const dropsUnsigned = await h().owner.put(schema(created.id), { jsonSchema: schemaOf({ isBeta: claim() }) });
    expect(dropsUnsigned.status).toBe(400);
    expect(dropsUnsigned.body.error.message).toMatch(new RegExp(`^jsonSchema: the condition of site space ${other.siteSpaces[0].id} would no longer hold: visitor\\.claims\\.unsigned\\.fromCampaign`));
    expect(await stored()).toEqual(before);
    // Once the conditions are gone, the claims can go.
    ok(await h().owner.patch(`${site(created.id)}/sections/${section.id}`, { condition: null }));
    ok(await h().owner.patch(`${site(created.id)}/site-spaces/${other.siteSpaces[0].id}`, { condition: null }));
    expect(ok(await h().owner.put(schema(created.id), { jsonSchema: schemaOf({}) })).jsonSchema).toEqual(schemaOf({}));
  });

  it('lets admins set the schema and members with a role read it', async () => {
    const created = await createSite();
    await setSchema(created.id);
    const before = await stored();
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.put(schema(created.id), { jsonSchema: schemaOf({}) })).status, `put as ${role}`).toBe(403);
      expect((await caller.get(schema(created.id))).status, `get as ${role}`).toBe(role === null ? 403 : 200);
    }
    expect(await stored()).toEqual(before);
    const admin = await h().user('admin');
    expect((await admin.put(schema(created.id), { jsonSchema: schemaOf({}) })).status).toBe(200);
    const stranger = (await h().organization()).owner;
    expect((await stranger.put(schema(created.id), { jsonSchema: schemaOf({}) })).status).toBe(404);
    expect((await h().owner.put(schema('no-such-site'), { jsonSchema: schemaOf({}) })).status).toBe(404);
  });
});
