import { GitBookAPI } from '@gitbook/api';
import { expect, it } from 'vitest';
import { TRANSLATION_LANGUAGES } from '../../src/core/translations/schemas.js';
import { contentHelpers } from './content.js';
import { httpSuite } from './harness.js';

/**
 * A space's `language` (the public API's TranslationLanguage): set on create and through PATCH, returned on
 * the space, copied by a duplicate; any other value is a 400 that changes nothing. The reader's `lang` and
 * `dir` come from it (test/http/reader/layout.test.ts).
 */

/**
 * The part of the official client these tests use. The package's types come through an `exports` map that
 * NodeNext resolution does not follow, so TypeScript sees no `spaces` on GitBookAPI; at run time it is there.
 */
interface SpacesClient {
  spaces: {
    getSpaceById(spaceId: string): Promise<{ data: { id: string; language?: string } }>;
    updateSpaceById(spaceId: string, data: { language?: string; title?: string }): Promise<{ data: { id: string; language?: string; title: string } }>;
  };
}

httpSuite('space language', (h) => {
  const { org, space, stored } = contentHelpers(h);
  const at = (id: string) => `/v1/spaces/${id}`;

  it('is absent until set, set on create and by PATCH, and returned by get, list and duplicate', async () => {
    const plain = await space({ title: 'Plain' });
    expect(plain.language).toBeUndefined();
    const created = await h().owner.post(`${org()}/spaces`, { title: 'Arabic', language: 'ar' });
    expect(created.status).toBe(201);
    expect(created.body.language).toBe('ar');
    h().clock.advance(1000);
    const patched = await h().owner.patch(at(plain.id), { language: 'he' });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...plain, language: 'he', updatedAt: patched.body.updatedAt });
    expect(patched.body.updatedAt).not.toBe(plain.updatedAt);
    expect((await h().owner.get(at(plain.id))).body.language).toBe('he');
    // The same language again changes nothing, updatedAt included; another replaces it.
    h().clock.advance(1000);
    expect((await h().owner.patch(at(plain.id), { language: 'he' })).body).toEqual(patched.body);
    expect((await h().owner.patch(at(plain.id), { language: 'pt-br', title: 'Português' })).body).toMatchObject({ language: 'pt-br', title: 'Português' });
    const listed = (await h().owner.get(`${org()}/spaces`)).body.items.map((item: { title: string; language?: string }) => [item.title, item.language]);
    expect(listed).toEqual([
      ['Português', 'pt-br'],
      ['Arabic', 'ar'],
    ]);
    const copy = await h().owner.post(`${at(created.body.id)}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.language).toBe('ar');
  });

  it('takes every TranslationLanguage code and refuses anything else with a 400 that changes nothing', async () => {
    const created = await space({ title: 'Codes' });
    for (const language of TRANSLATION_LANGUAGES) {
      expect((await h().owner.patch(at(created.id), { language })).body.language, language).toBe(language);
    }
    const before = await stored();
    for (const language of ['', 'AR', 'arabic', 'en-US', 'xx', null, 7, ['ar']]) {
      const response = await h().owner.patch(at(created.id), { language });
      expect(response.status, JSON.stringify(language)).toBe(400);
      expect(response.body.error.message, JSON.stringify(language)).toMatch(/^language: /);
      const made = await h().owner.post(`${org()}/spaces`, { language });
      expect(made.status, JSON.stringify(language)).toBe(400);
    }
    expect(await stored()).toEqual(before);
  });

  it('needs the admin permission on the space to set it', async () => {
    const created = await space({ title: 'Guarded' });
    const editor = await h().user('edit');
    const before = await stored();
    expect((await editor.patch(at(created.id), { language: 'ar' })).status).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('answers the official @gitbook/api client', async () => {
    const created = await space({ title: 'Client' });
    const client = new GitBookAPI({
      endpoint: 'http://docs.test',
      authToken: h().owner.token,
      serviceBinding: { fetch: (input, init) => h().send(new URL(String(input)).pathname, init) },
    }) as unknown as SpacesClient;
    const { data } = await client.spaces.updateSpaceById(created.id, { language: 'ar' });
    expect(data).toMatchObject({ id: created.id, language: 'ar', title: 'Client' });
    expect((await client.spaces.getSpaceById(created.id)).data.language).toBe('ar');
  });
});
