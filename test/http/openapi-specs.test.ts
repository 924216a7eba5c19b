import { afterAll, beforeAll, expect, it } from 'vitest';
import { stringify as stringifyYaml } from 'yaml';
import { parseSpecification } from '../../src/core/openapi-specs/parse.js';
import type { ApiError } from '../../src/core/errors.js';
import { MAX_SOURCE_BYTES } from '../../src/core/openapi-specs/schemas.js';
import { TABLES, type OpenAPISpecRecord, type OpenAPISpecVersionRecord } from '../../src/core/records.js';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals, type Refusal } from './bad-input.js';
import { httpSuite, walkPages, type Caller } from './harness.js';
import { INVENTORY_30, INVENTORY_30_YAML, NOT_OPENAPI, PETSTORE_31, SWAGGER_20, startSourceServer, type SourceServer } from './openapi-sources.js';

/**
 * The OpenAPI specification endpoints: every field of a specification and a version, processing from a
 * URL served by a local HTTP server (good documents in JSON and YAML, Swagger 2.0, and sources that are
 * slow, broken, unparseable or unchanged), text sources, who may do what, and bad input changing nothing.
 * Processing runs after the response: `platform.settle()` waits for it.
 */

/** The fetch timeout of the platform under test: short, so that the slow sources time out quickly. */
const TIMEOUT_MS = 1000;
/** How long a run may hold a specification before it counts as dead (processing.ts: timeout + 60 s). */
const DEADLINE_MS = TIMEOUT_MS + 60_000;
const T0 = '2026-03-01T10:00:00.000Z';
const SPEC_KEYS = ['createdAt', 'id', 'object', 'permissions', 'processingState', 'slug', 'updatedAt', 'urls'];
const VERSION_KEYS = ['createdAt', 'id', 'object', 'url', 'urls'];
const BELOW_CREATE: (MemberRole | null)[] = ['review', 'edit', 'comment', 'read'];

let sources: SourceServer;
beforeAll(async () => {
  sources = await startSourceServer();
  // The validator compiles each OpenAPI version's schema on first use (a few hundred ms of CPU): done
  // here, so that it does not eat into the fetch timeout of the first tests.
  for (const text of [JSON.stringify(PETSTORE_31), INVENTORY_30_YAML, JSON.stringify(SWAGGER_20)]) expect(await parseSpecification(text)).toBeDefined();
});
afterAll(async () => {
  await sources.close();
});

httpSuite(
  'OpenAPI specifications',
  (h) => {
    const specs = () => `/v1/orgs/${h().organizationId}/openapi`;
    const spec = (slug: string) => `${specs()}/${slug}`;
    const source = (name: string) => ({ url: `${sources.base}/${name}` });
    /** The path (and query) of an absolute URL the API returned, to request it through the harness. */
    const pathOf = (url: string) => new URL(url).pathname;

    async function create(slug: string, from: { url: string } | { text: string }, caller: Caller = h().owner) {
      const response = await caller.post(specs(), { slug, source: from });
      expect(response.status, response.text).toBe(201);
      return response.body;
    }

    /** Waits for processing to finish, then reads the specification. */
    async function processed(slug: string) {
      await h().platform.settle();
      const response = await h().owner.get(spec(slug));
      expect(response.status, response.text).toBe(200);
      return response.body;
    }

    const versions = (slug: string) => walkPages(h().owner, `${spec(slug)}/versions`, 1000);

    async function latestDocument(slug: string) {
      const response = await h().owner.get(`${spec(slug)}/versions/latest/content`);
      expect(response.status, response.text).toBe(200);
      return response.body.filesystem['openapi.json'];
    }

    /** Everything stored about the organization's specifications, as the API shows it. */
    async function state() {
      const list = await walkPages(h().owner, specs(), 1000);
      return Promise.all(list.map(async (item) => ({ item, versions: await versions(item.slug) })));
    }

    /** Rewrites a stored specification, as a run that died would have left it. */
    async function leaveAsDeadRun(slug: string, change: Partial<OpenAPISpecRecord>) {
      const { id } = (await h().owner.get(spec(slug))).body;
      await h().platform.store.write(async (tx) => {
        const record = (await tx.get(TABLES.openAPISpecs, id)) as OpenAPISpecRecord;
        await tx.put(TABLES.openAPISpecs, { ...record, ...change });
      });
    }

    it('creates a specification from a URL with 201, pending, then processes an OpenAPI 3.1 JSON document into a version', async () => {
      h().clock.advance(60_000);
      const created = await h().owner.post(specs(), { slug: 'petstore', source: source('petstore-31.json') });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual([...SPEC_KEYS, 'sourceURL'].sort());
      expect(created.body).toEqual({
        object: 'openapi-spec',
        id: expect.stringMatching(/^[A-Za-z0-9]+$/),
        createdAt: '2026-03-01T10:01:00.000Z',
        updatedAt: '2026-03-01T10:01:00.000Z',
        slug: 'petstore',
        sourceURL: `${sources.base}/petstore-31.json`,
        processingState: 'pending',
        permissions: { view: true, edit: true },
        urls: {
          location: expect.stringMatching(new RegExp(`^https?://[^/]+/v1/orgs/${h().organizationId}/openapi/petstore$`)),
          app: expect.stringMatching(new RegExp(`^https?://[^/]+/app/o/${h().organizationId}/openapi/petstore$`)),
        },
      });
      expect(created.headers.get('location')).toBe(created.body.urls.location);

      h().clock.advance(1000);
      const done = await processed('petstore');
      const all = await versions('petstore');
      expect(all).toHaveLength(1);
      const [version] = all;
      expect(done).toEqual({
        ...created.body,
        processingState: 'complete',
        updatedAt: '2026-03-01T10:01:01.000Z',
        lastVersion: version.id,
        lastProcessedAt: '2026-03-01T10:01:01.000Z',
      });
      expect(Object.keys(version).sort()).toEqual(VERSION_KEYS);
      const location = `${created.body.urls.location}/versions/${version.id}`;
      expect(version).toEqual({
        object: 'openapi-spec-version',
        id: done.lastVersion,
        createdAt: '2026-03-01T10:01:01.000Z',
        url: `${location}/openapi.json`,
        urls: { location },
      });
      expect((await h().owner.get(`${spec('petstore')}/versions/latest`)).body).toEqual(version);
      expect((await h().owner.get(`${spec('petstore')}/versions/${version.id}`)).body).toEqual(version);
      const latest = await h().owner.get(`${spec('petstore')}/versions/latest/content`);
      expect(latest.body).toEqual({ filesystem: { 'openapi.json': PETSTORE_31 }, url: version.url });
      expect((await h().owner.get(`${spec('petstore')}/versions/${version.id}/content`)).body).toEqual(latest.body);
      const served = await h().owner.get(pathOf(version.url));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^application\/json/);
      expect(served.body).toEqual(PETSTORE_31);
      expect(sources.hits.get('/petstore-31.json')).toBeGreaterThanOrEqual(1);
    });

    it('processes an OpenAPI 3.0 YAML document, a Swagger 2.0 document and a redirect', async () => {
      await create('inventory', source('inventory-30.yaml'));
      await create('legacy', source('swagger-20.json'));
      await create('moved', source('redirect'));
      for (const slug of ['inventory', 'legacy', 'moved']) {
        const done = await processed(slug);
        expect(done.processingState, slug).toBe('complete');
        expect(done.lastProcessErrorCode, slug).toBeUndefined();
        expect(await versions(slug), slug).toHaveLength(1);
      }
      expect(await latestDocument('inventory')).toEqual(INVENTORY_30);
      expect(await latestDocument('legacy')).toEqual(SWAGGER_20);
      expect(await latestDocument('moved')).toEqual(PETSTORE_31);
    });

    it('takes a source given as text, in JSON or YAML, without a sourceURL', async () => {
      const json = await create('from-json', { text: JSON.stringify(SWAGGER_20) });
      const yaml = await create('from-yaml', { text: INVENTORY_30_YAML });
      for (const created of [json, yaml]) {
        expect(Object.keys(created).sort()).toEqual(SPEC_KEYS);
        expect(created.processingState).toBe('pending');
      }
      expect(Object.keys(await processed('from-json')).sort()).toEqual([...SPEC_KEYS, 'lastProcessedAt', 'lastVersion'].sort());
      expect(await latestDocument('from-json')).toEqual(SWAGGER_20);
      expect((await processed('from-yaml')).processingState).toBe('complete');
      expect(await latestDocument('from-yaml')).toEqual(INVENTORY_30);
    });

    it('keeps a version\'s document in the blob store, and still serves a version stored with its document inline', async () => {
      await create('stored', { text: JSON.stringify(SWAGGER_20) });
      const { lastVersion } = await processed('stored');
      const record = (await h().platform.store.read((tx) => tx.get(TABLES.openAPISpecVersions, lastVersion))) as OpenAPISpecVersionRecord;
      expect(record.document).toBeUndefined();
      expect(record.documentKey).toMatch(/^[0-9a-f]{64}$/);
      expect(await latestDocument('stored')).toEqual(SWAGGER_20);
      // As versions were stored before documents moved to the blob store.
      const { documentKey: _key, ...inline } = record;
      await h().platform.store.write((tx) => tx.put(TABLES.openAPISpecVersions, { ...inline, document: JSON.stringify(PETSTORE_31) }));
      expect(await latestDocument('stored')).toEqual(PETSTORE_31);
      expect((await h().owner.get(`${spec('stored')}/versions/${lastVersion}/openapi.json`)).body).toEqual(PETSTORE_31);
    });

    it('refuses a text over 5 MiB through the library (over HTTP the 1 MiB of a body comes first: 413)', async () => {
      const text = JSON.stringify({ ...SWAGGER_20, padding: 'x'.repeat(MAX_SOURCE_BYTES) });
      const api = h().platform.as(h().owner.userId);
      const refused = await api.createOpenAPISpec({ organizationId: h().organizationId, slug: 'huge', source: { text } }).catch((error: ApiError) => error);
      expect(refused).toMatchObject({ status: 400, message: `source.text: must be at most ${MAX_SOURCE_BYTES} bytes (5 MiB) of UTF-8` });
      expect((await h().owner.post(specs(), { slug: 'huge', source: { text } })).status).toBe(413);
    });

    it('shows the run in progress while the source is being fetched', async () => {
      const gate = sources.gate();
      const created = await create('gated', source('gated.json'));
      expect(created.processingState).toBe('pending');
      await gate.arrived;
      const running = await h().owner.get(spec('gated'));
      expect(running.body.processingState).toBe('progress');
      expect(running.body.lastVersion).toBeUndefined();
      expect((await h().owner.get(`${spec('gated')}/versions/latest`)).status).toBe(404);
      expect((await h().owner.get(`${spec('gated')}/versions`)).body).toEqual({ items: [], count: 0 });
      gate.release(JSON.stringify(SWAGGER_20));
      expect((await processed('gated')).processingState).toBe('complete');
      expect(await latestDocument('gated')).toEqual(SWAGGER_20);
    });

    it('records FETCH_TIMEOUT for a source slower than the timeout, and keeps the previous version', async () => {
      await create('slow', source('petstore-31.json'));
      const first = await processed('slow');
      for (const name of ['slow.json', 'slow-body.json']) {
        h().clock.advance(1000);
        const started = Date.now();
        const put = await h().owner.put(spec('slow'), { source: source(name) });
        expect(put.status).toBe(200);
        expect(put.body.processingState).toBe('pending');
        expect(put.body.sourceURL).toBe(`${sources.base}/${name}`);
        const done = await processed('slow');
        expect(Date.now() - started, name).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
        expect(done, name).toEqual({
          ...first,
          sourceURL: `${sources.base}/${name}`,
          processingState: 'complete',
          lastProcessErrorCode: 'FETCH_TIMEOUT',
          lastProcessedAt: h().clock.now().toISOString(),
          updatedAt: h().clock.now().toISOString(),
        });
        expect((await versions('slow')).map((version) => version.id)).toEqual([first.lastVersion]);
        expect(await latestDocument('slow')).toEqual(PETSTORE_31);
      }
    });

    it('records FETCH_ERROR for a reset connection, an error status, a refused connection and a source over 5 MiB', async () => {
      await create('broken', { text: JSON.stringify(SWAGGER_20) });
      const first = await processed('broken');
      for (const url of [`${sources.base}/reset`, `${sources.base}/error.json`, `${sources.base}/missing.json`, sources.refused, `${sources.base}/huge.json`]) {
        await h().owner.put(spec('broken'), { source: { url } });
        const done = await processed('broken');
        expect(done.processingState, url).toBe('complete');
        expect(done.lastProcessErrorCode, url).toBe('FETCH_ERROR');
        expect(done.lastVersion, url).toBe(first.lastVersion);
      }
      expect(await versions('broken')).toHaveLength(1);
      expect(await latestDocument('broken')).toEqual(SWAGGER_20);
    });

    it('records PARSE_ERROR for a source that is not an OpenAPI 3.x or Swagger 2.0 document, from a URL or a text', async () => {
      await create('strict', source('swagger-20.json'));
      const first = await processed('strict');
      for (const [name, text] of Object.entries(NOT_OPENAPI)) {
        for (const from of [source(name), { text }]) {
          await h().owner.put(spec('strict'), { source: from });
          const done = await processed('strict');
          expect(done.processingState, name).toBe('complete');
          expect(done.lastProcessErrorCode, `${name} ${JSON.stringify(from).slice(0, 60)}`).toBe('PARSE_ERROR');
          expect(done.lastVersion, name).toBe(first.lastVersion);
        }
      }
      expect(await versions('strict')).toHaveLength(1);
      expect(await latestDocument('strict')).toEqual(SWAGGER_20);
      // A first processing that fails leaves no version at all.
      await create('never', source('plain.txt'));
      const never = await processed('never');
      expect(never.lastProcessErrorCode).toBe('PARSE_ERROR');
      expect(never.lastVersion).toBeUndefined();
      expect((await h().owner.get(`${spec('never')}/versions/latest/content`)).status).toBe(404);
    });

    it('adds no version for an unchanged document, a new one for a changed one, and clears the error on success', async () => {
      sources.mutable = JSON.stringify(PETSTORE_31);
      await create('live', source('mutable.json'));
      const first = await processed('live');
      const hits = sources.hits.get('/mutable.json') ?? 0;
      // The same URL again: fetched again, the same document, so no version.
      h().clock.advance(1000);
      expect((await h().owner.put(spec('live'), { source: source('mutable.json') })).status).toBe(200);
      const same = await processed('live');
      expect(sources.hits.get('/mutable.json')).toBe(hits + 1);
      expect(same.lastVersion).toBe(first.lastVersion);
      expect(same.lastProcessedAt).toBe(h().clock.now().toISOString());
      expect(await versions('live')).toHaveLength(1);
      // The same document in another layout, key order or format is still unchanged.
      const { openapi, info, paths, components } = PETSTORE_31;
      const reordered = JSON.stringify({ components, paths, info: { version: info.version, title: info.title }, openapi }, null, 2);
      for (const text of [reordered, stringifyYaml(PETSTORE_31)]) {
        await h().owner.put(spec('live'), { source: { text } });
        expect((await processed('live')).lastVersion).toBe(first.lastVersion);
      }
      expect(await versions('live')).toHaveLength(1);
      // A failure, then the unchanged document again: no version, and the error is gone.
      await h().owner.put(spec('live'), { source: source('error.json') });
      expect((await processed('live')).lastProcessErrorCode).toBe('FETCH_ERROR');
      await h().owner.put(spec('live'), { source: source('mutable.json') });
      const healed = await processed('live');
      expect(healed.lastProcessErrorCode).toBeUndefined();
      expect(healed.lastVersion).toBe(first.lastVersion);
      // A changed document: a new version, listed first; the old one keeps its document.
      h().clock.advance(1000);
      const changed = { ...PETSTORE_31, info: { title: 'Petstore', version: '1.1.0' } };
      sources.mutable = JSON.stringify(changed);
      await h().owner.put(spec('live'), { source: source('mutable.json') });
      const second = await processed('live');
      expect(second.lastVersion).not.toBe(first.lastVersion);
      expect(second.updatedAt).toBe(h().clock.now().toISOString());
      const all = await versions('live');
      expect(all.map((version) => version.id)).toEqual([second.lastVersion, first.lastVersion]);
      expect(await latestDocument('live')).toEqual(changed);
      const old = await h().owner.get(`${spec('live')}/versions/${first.lastVersion}/content`);
      expect(old.body.filesystem['openapi.json']).toEqual(PETSTORE_31);
      expect((await h().owner.get(pathOf(all[1].url))).body).toEqual(PETSTORE_31);
    });

    it('PUT creates a specification (200) for a new slug and gives an existing one a new source', async () => {
      h().clock.advance(5000);
      const created = await h().owner.put(spec('by-put'), { source: { text: JSON.stringify(PETSTORE_31) } });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ object: 'openapi-spec', slug: 'by-put', processingState: 'pending', createdAt: '2026-03-01T10:00:05.000Z' });
      expect(Object.keys(created.body).sort()).toEqual(SPEC_KEYS);
      const first = await processed('by-put');
      h().clock.advance(5000);
      const updated = await h().owner.put(spec('by-put'), { source: source('swagger-20.json') });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({
        ...first,
        sourceURL: `${sources.base}/swagger-20.json`,
        processingState: 'pending',
        updatedAt: '2026-03-01T10:00:10.000Z',
      });
      await processed('by-put');
      expect(await versions('by-put')).toHaveLength(2);
      // Back to a text source: the URL is dropped.
      const text = await h().owner.put(spec('by-put'), { source: { text: INVENTORY_30_YAML } });
      expect(text.body.sourceURL).toBeUndefined();
      expect((await processed('by-put')).sourceURL).toBeUndefined();
      expect(await latestDocument('by-put')).toEqual(INVENTORY_30);
      expect((await h().owner.get(specs())).body.count).toBe(1);
    });

    it('discards the outcome of a run whose specification got a new source or was deleted meanwhile', async () => {
      const gate = sources.gate();
      await create('racing', source('gated.json'));
      await gate.arrived;
      const put = await h().owner.put(spec('racing'), { source: { text: JSON.stringify(SWAGGER_20) } });
      expect(put.body.processingState).toBe('pending');
      gate.release(JSON.stringify(PETSTORE_31));
      const done = await processed('racing');
      expect(done.processingState).toBe('complete');
      expect(await versions('racing')).toHaveLength(1);
      expect(await latestDocument('racing')).toEqual(SWAGGER_20);

      const second = sources.gate();
      await create('doomed', source('gated.json'));
      await second.arrived;
      expect((await h().owner.delete(spec('doomed'))).status).toBe(205);
      second.release(JSON.stringify(PETSTORE_31));
      await h().platform.settle();
      expect((await h().owner.get(spec('doomed'))).status).toBe(404);
      await create('doomed', { text: JSON.stringify(SWAGGER_20) });
      expect((await processed('doomed')).lastProcessErrorCode).toBeUndefined();
      expect(await versions('doomed')).toHaveLength(1);
    });

    it('takes over a run that died in progress or before it started, once the deadline has passed', async () => {
      sources.mutable = JSON.stringify(PETSTORE_31);
      await create('stuck', source('mutable.json'));
      const first = await processed('stuck');
      // A PUT whose run died mid-fetch: the document changed meanwhile.
      sources.mutable = JSON.stringify(SWAGGER_20);
      await leaveAsDeadRun('stuck', { processingState: 'progress', claim: 'dead-run', processingSince: h().clock.now().toISOString() });
      h().clock.advance(DEADLINE_MS - 1);
      expect((await processed('stuck')).processingState).toBe('progress');
      expect(await versions('stuck')).toHaveLength(1);
      h().clock.advance(1);
      // The first read past the deadline schedules a new run; the next one sees its outcome.
      expect((await h().owner.get(spec('stuck'))).body.processingState).toBe('progress');
      const healed = await processed('stuck');
      expect(healed).toMatchObject({ processingState: 'complete', lastProcessedAt: h().clock.now().toISOString() });
      expect(healed.lastVersion).not.toBe(first.lastVersion);
      expect(await latestDocument('stuck')).toEqual(SWAGGER_20);

      // A PUT whose run never started (the process stopped right after answering): listing heals it too.
      await create('orphan', { text: JSON.stringify(SWAGGER_20) });
      await h().platform.settle();
      await leaveAsDeadRun('orphan', { processingState: 'pending', processingSince: h().clock.now().toISOString(), sourceURL: source('inventory-30.yaml').url });
      h().clock.advance(DEADLINE_MS);
      const listed = await h().owner.get(specs());
      expect(listed.body.items.find((item: any) => item.slug === 'orphan').processingState).toBe('pending');
      expect((await processed('orphan')).processingState).toBe('complete');
      expect(await latestDocument('orphan')).toEqual(INVENTORY_30);
    });

    it('refuses a bad create with 400 naming the field, and stores nothing', async () => {
      const good = { url: `${sources.base}/petstore-31.json` };
      const cases: Refusal[] = [
        [{}, /^slug: is required$/],
        [{ source: good }, /^slug: is required$/],
        [{ slug: 'ok' }, /^source: is required$/],
        [{ slug: '', source: good }, /^slug: must be 1 to 100 characters$/],
        [{ slug: 'a'.repeat(101), source: good }, /^slug: must be 1 to 100 characters$/],
        ...['Upper', 'a--b', '-a', 'a-', 'a_b', 'a b', 'a.b', 'é'].map((slug): Refusal => [{ slug, source: good }, /^slug: must match /]),
        [{ slug: 7, source: good }, /^slug: must be string/],
        [{ slug: null, source: good }, /^slug: /],
        [{ slug: 'ok', source: null }, /^source: /],
        [{ slug: 'ok', source: 'http://x.test/a.json' }, /^source: /],
        [{ slug: 'ok', source: {} }, /^source: must have exactly one of url and text$/],
        [{ slug: 'ok', source: { url: good.url, text: 'openapi: 3.1.0' } }, /^source: must have exactly one of url and text$/],
        [{ slug: 'ok', source: { url: 'not a url' } }, /^source\.url: must be an absolute URL$/],
        [{ slug: 'ok', source: { url: '/relative.json' } }, /^source\.url: must be an absolute URL$/],
        [{ slug: 'ok', source: { url: 'ftp://x.test/a.json' } }, /^source\.url: must be an http or https URL$/],
        [{ slug: 'ok', source: { url: 'file:///etc/passwd' } }, /^source\.url: must be an http or https URL$/],
        [{ slug: 'ok', source: { url: `http://x.test/${'a'.repeat(2049 - 'http://x.test/'.length)}` } }, /^source\.url: must be at most 2048 characters$/],
        [{ slug: 'ok', source: { url: 42 } }, /^source\.url: must be string/],
        [{ slug: 'ok', source: { text: '' } }, /^source\.text: must not be empty$/],
        [{ slug: 'ok', source: { text: { openapi: '3.1.0' } } }, /^source\.text: must be string/],
      ];
      await expectRefusals((body) => h().owner.post(specs(), body), cases);
      expect(await state()).toEqual([]);
      await h().platform.settle();
      expect(await state()).toEqual([]);
    });

    it('accepts slugs of 1 and 100 characters and a URL of exactly 2048 characters', async () => {
      const long = `${sources.base}/missing.json?${'q'.repeat(2048 - `${sources.base}/missing.json?`.length)}`;
      expect(long).toHaveLength(2048);
      expect((await create('a', { url: long })).sourceURL).toBe(long);
      expect((await create('b'.repeat(100), { text: JSON.stringify(SWAGGER_20) })).slug).toBe('b'.repeat(100));
      expect((await create('v2-api-2024', { text: JSON.stringify(SWAGGER_20) })).slug).toBe('v2-api-2024');
      await h().platform.settle();
      expect((await h().owner.get(specs())).body.count).toBe(3);
    });

    it('refuses a second specification with the same slug (409) and a bad PUT (400), changing nothing', async () => {
      await create('taken', { text: JSON.stringify(SWAGGER_20) });
      await processed('taken');
      const before = await state();
      const again = await h().owner.post(specs(), { slug: 'taken', source: { text: JSON.stringify(PETSTORE_31) } });
      expect(again.status).toBe(409);
      expect(again.body.error.message).toMatch(/^slug: an OpenAPI specification taken exists/);
      await expectRefusals((body) => h().owner.put(spec('taken'), body), [
        [{}, /^source: is required$/],
        [{ source: {} }, /^source: must have exactly one of url and text$/],
        [{ source: { url: 'ftp://x.test/a.json' } }, /^source\.url: must be an http or https URL$/],
        [{ source: { text: '' } }, /^source\.text: must not be empty$/],
      ]);
      await expectRefusals((slug) => h().owner.put(spec(slug), { source: { text: JSON.stringify(SWAGGER_20) } }), [
        ['Taken', /^specSlug: must match /],
        ['a--b', /^specSlug: must match /],
        ['a'.repeat(101), /^specSlug: must be 1 to 100 characters$/],
      ]);
      const raw = await h().owner.put(spec('taken'), undefined, { rawBody: '{"source":', headers: { 'content-type': 'application/json' } });
      expect(raw.status).toBe(400);
      await h().platform.settle();
      expect(await state()).toEqual(before);
    });

    it('answers 404 for an unknown specification or version, and for the latest version before the first', async () => {
      await create('known', { text: JSON.stringify(SWAGGER_20) });
      const other = await h().organization();
      const foreign = await other.owner.post(`/v1/orgs/${other.organizationId}/openapi`, { slug: 'theirs', source: { text: JSON.stringify(SWAGGER_20) } });
      expect(foreign.status).toBe(201);
      await h().platform.settle();
      const theirVersion = (await other.owner.get(`/v1/orgs/${other.organizationId}/openapi/theirs/versions/latest`)).body.id;
      const ours = (await h().owner.get(`${spec('known')}/versions/latest`)).body.id;
      for (const slug of ['unknown', 'theirs', 'Not-A-Slug']) {
        for (const path of ['', '/versions', '/versions/latest', '/versions/latest/content', `/versions/${ours}`, `/versions/${ours}/content`, `/versions/${ours}/openapi.json`]) {
          const response = await h().owner.get(`${spec(slug)}${path}`);
          expect(response.status, `${slug}${path}`).toBe(404);
          expect(response.body.error.message).toBe(`No OpenAPI specification ${slug} in organization ${h().organizationId}`);
        }
        expect((await h().owner.delete(spec(slug))).status).toBe(404);
      }
      for (const versionId of ['no-such-version', theirVersion]) {
        for (const path of ['', '/content', '/openapi.json']) {
          const response = await h().owner.get(`${spec('known')}/versions/${versionId}${path}`);
          expect(response.status).toBe(404);
          expect(response.body.error.message).toBe(`No version ${versionId} of OpenAPI specification known`);
        }
      }
      const gate = sources.gate();
      await create('empty', source('gated.json'));
      await gate.arrived;
      for (const path of ['/versions/latest', '/versions/latest/content']) {
        const response = await h().owner.get(`${spec('empty')}${path}`);
        expect(response.status).toBe(404);
        expect(response.body.error.message).toBe('OpenAPI specification empty has no version yet');
      }
      gate.release(JSON.stringify(PETSTORE_31));
      await h().platform.settle();
      expect((await other.owner.get(`/v1/orgs/${other.organizationId}/openapi/theirs`)).status).toBe(200);
    });

    it('deletes a specification with its versions (205); a later one with the same slug starts afresh', async () => {
      await create('gone', source('petstore-31.json'));
      await processed('gone');
      await h().owner.put(spec('gone'), { source: source('swagger-20.json') });
      const before = await processed('gone');
      const all = await versions('gone');
      expect(all).toHaveLength(2);
      await create('kept', { text: JSON.stringify(SWAGGER_20) });
      h().clock.advance(1000);
      const deleted = await h().owner.delete(spec('gone'));
      expect(deleted.status).toBe(205);
      expect(deleted.text).toBe('');
      expect((await h().owner.get(spec('gone'))).status).toBe(404);
      expect((await h().owner.delete(spec('gone'))).status).toBe(404);
      const stored = await h().platform.store.read((tx) => Promise.all(all.map((version) => tx.get(TABLES.openAPISpecVersions, version.id))));
      expect(stored).toEqual([undefined, undefined]);
      const again = await create('gone', { text: JSON.stringify(PETSTORE_31) });
      expect(again.id).not.toBe(before.id);
      expect(again.lastVersion).toBeUndefined();
      await processed('gone');
      expect(await versions('gone')).toHaveLength(1);
      expect((await h().owner.get(specs())).body.items.map((item: any) => item.slug)).toEqual(['kept', 'gone']);
    });

    it('lists specifications oldest first and versions newest first, with exact counts and paging', async () => {
      const slugs = ['zeta', 'alpha', 'mid'];
      for (const slug of slugs) {
        h().clock.advance(1000);
        await create(slug, { text: JSON.stringify(SWAGGER_20) });
      }
      const list = await h().owner.get(specs());
      expect(list.body.count).toBe(3);
      expect(list.body.next).toBeUndefined();
      expect(list.body.items.map((item: any) => item.slug)).toEqual(slugs);
      for (const limit of [1, 2, 3]) expect((await walkPages(h().owner, specs(), limit)).map((item) => item.slug)).toEqual(slugs);
      const page = await h().owner.get(`${specs()}?limit=2`);
      expect(page.body.count).toBe(3);
      expect(page.body.items).toHaveLength(2);
      expect(page.body.next.page).toEqual(expect.any(String));

      const ids: string[] = [(await processed('mid')).lastVersion];
      for (let i = 0; i < 5; i++) {
        await h().owner.put(spec('mid'), { source: { text: JSON.stringify({ ...SWAGGER_20, info: { title: 'Legacy', version: `v${i}` } }) } });
        ids.unshift((await processed('mid')).lastVersion);
      }
      expect(new Set(ids).size).toBe(6);
      for (const limit of [1, 2, 5, 6, 1000]) expect((await walkPages(h().owner, `${spec('mid')}/versions`, limit)).map((item) => item.id)).toEqual(ids);
      const first = await h().owner.get(`${spec('mid')}/versions?limit=2`);
      expect(first.body.count).toBe(6);
      const second = await h().owner.get(`${spec('mid')}/versions?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
      expect(second.body.items.map((item: any) => item.id)).toEqual(ids.slice(2, 4));
      await expectRefusals((query: string) => h().owner.get(`${spec('mid')}/versions?${query}`), [
        ['limit=0', /^limit: must be at least 1$/],
        ['limit=1001', /^limit: must be at most 1000$/],
        ['page=garbage', /^page: /],
      ]);
      await expectRefusals((query: string) => h().owner.get(`${specs()}?${query}`), [
        ['limit=0', /^limit: must be at least 1$/],
        ['limit=x', /^limit: must be a whole number$/],
      ]);
    });

    it('lets members with a role read, the create role and above change, guests nothing, strangers not even see', async () => {
      await create('shared', { text: JSON.stringify(SWAGGER_20) });
      await processed('shared');
      const versionId = (await h().owner.get(`${spec('shared')}/versions/latest`)).body.id;
      const reads = ['', '/versions', '/versions/latest', '/versions/latest/content', `/versions/${versionId}`, `/versions/${versionId}/content`, `/versions/${versionId}/openapi.json`];
      const before = await state();
      const text = { text: JSON.stringify(PETSTORE_31) };
      for (const role of BELOW_CREATE) {
        const member = await h().user(role);
        const list = await member.get(specs());
        expect(list.status, `${role}`).toBe(200);
        expect(list.body.items[0].permissions).toEqual({ view: true, edit: false });
        for (const path of reads) expect((await member.get(`${spec('shared')}${path}`)).status, `${role} ${path}`).toBe(200);
        expect((await member.post(specs(), { slug: 'mine', source: text })).status, `${role}`).toBe(403);
        expect((await member.put(spec('shared'), { source: text })).status, `${role}`).toBe(403);
        expect((await member.put(spec('mine'), { source: text })).status, `${role}`).toBe(403);
        expect((await member.delete(spec('shared'))).status, `${role}`).toBe(403);
      }
      const guest = await h().user(null);
      expect((await guest.get(specs())).status).toBe(403);
      for (const path of reads) expect((await guest.get(`${spec('shared')}${path}`)).status, `guest ${path}`).toBe(403);
      expect((await guest.post(specs(), { slug: 'mine', source: text })).status).toBe(403);
      const stranger = (await h().organization()).owner;
      expect((await stranger.get(specs())).status).toBe(404);
      for (const path of reads) expect((await stranger.get(`${spec('shared')}${path}`)).status, `stranger ${path}`).toBe(404);
      expect((await stranger.post(specs(), { slug: 'mine', source: text })).status).toBe(404);
      expect((await stranger.put(spec('shared'), { source: text })).status).toBe(404);
      expect((await stranger.delete(spec('shared'))).status).toBe(404);
      for (const token of [null, 'not-a-token']) {
        expect((await h().request('GET', specs(), { token })).status).toBe(401);
        expect((await h().request('POST', specs(), { token, body: { slug: 'mine', source: text } })).status).toBe(401);
        expect((await h().request('GET', `${spec('shared')}/versions/${versionId}/openapi.json`, { token })).status).toBe(401);
      }
      await h().platform.settle();
      expect(await state()).toEqual(before);

      const creator = await h().user('create');
      const made = await create('by-creator', text, creator);
      expect(made.permissions).toEqual({ view: true, edit: true });
      expect((await creator.put(spec('shared'), { source: text })).status).toBe(200);
      expect((await creator.delete(spec('by-creator'))).status).toBe(205);
      const admin = await h().user('admin');
      expect((await admin.delete(spec('shared'))).status).toBe(205);
      await h().platform.settle();
      expect(await state()).toEqual([]);
    });
  },
  // The sources are served on 127.0.0.1, which outbound fetches reach only when allowed.
  { fetchTimeoutMs: TIMEOUT_MS, fetchAllow: ['127.0.0.1'] },
);
