import { expect, it } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import { expectRefusals } from './bad-input.js';
import { httpSuite } from './harness.js';
import { DEFAULT_CUSTOMIZATION, siteHelpers } from './site-helpers.js';

/** A site's customization settings (the public API's `…/customization`): the defaults until set, then the whole object given. */
httpSuite('site customization', (h) => {
  const { site, ok, createSite, published } = siteHelpers(h);
  const path = (siteId: string) => `${site(siteId)}/customization`;
  const settings = (change: (value: any) => void = () => undefined) => {
    const value = structuredClone(DEFAULT_CUSTOMIZATION) as any;
    change(value);
    return value;
  };

  it('gives the defaults, without updatedAt, until the settings are set', async () => {
    const created = await createSite();
    expect(ok(await h().owner.get(path(created.id)))).toEqual(DEFAULT_CUSTOMIZATION);
    expect(ok(await h().owner.get(`${path(created.id)}?unmasked=true`))).toEqual(DEFAULT_CUSTOMIZATION);
  });

  it('replaces the whole settings: what a PUT leaves out is gone; the published customizations follow', async () => {
    const created = await createSite({ title: 'Handbook' });
    h().clock.advance(60_000);
    const full = settings((value) => {
      value.title = 'Acme Handbook';
      value.styling.primaryColor = { light: '#FF0000', dark: '#00ff00' };
      value.styling.font = { id: 'brand', custom: true, fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.acme.test/brand.woff2', format: 'woff2' }] }] };
      value.styling.headingFont = null;
      value.internationalization.locale = 'fr';
      value.favicon = { emoji: '1f4d8' };
      value.header.links = [{ title: 'Home', to: { kind: 'url', url: 'https://acme.test' }, links: [], condition: 'visitor.claims.isStaff' }];
      value.footer = { groups: [{ title: 'More', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://acme.test/blog' } }] }], copyright: '© Acme' };
      value.announcement = { enabled: true, message: 'New release', style: 'info' };
      value.localizedTitle = { de: 'Acme Handbuch' };
      value.ai = { mode: 'search', suggestions: ['How do I start?'] };
      value.socialAccounts = [{ platform: 'github', handle: 'acme', display: { footer: true, header: false } }];
    });
    const response = await h().owner.put(path(created.id), full);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...full, updatedAt: '2026-03-01T10:01:01.000Z' });
    expect(ok(await h().owner.get(path(created.id)))).toEqual(response.body);
    expect((await published(created.id)).customizations).toEqual({ site: response.body, siteSpaces: {} });
    h().clock.advance(60_000);
    const plain = ok(await h().owner.put(path(created.id), settings()));
    expect(plain).toEqual({ ...DEFAULT_CUSTOMIZATION, updatedAt: '2026-03-01T10:02:01.000Z' });
    // Without a title of their own, the published customizations take the site's.
    expect((await published(created.id)).customizations.site.title).toBe('Handbook');
    // Another site keeps the defaults; a deleted site takes its settings with it.
    expect(ok(await h().owner.get(path((await createSite()).id)))).toEqual(DEFAULT_CUSTOMIZATION);
    expect((await h().owner.delete(site(created.id))).status).toBe(205);
    expect(await h().platform.store.read((tx) => tx.get('siteCustomizations', created.id))).toBeUndefined();
  });

  it('refuses what the public schema refuses with 400 naming the field, and keeps the settings', async () => {
    const created = await createSite();
    const kept = ok(await h().owner.put(path(created.id), settings()));
    const without = (field: string) => settings((value) => delete value[field]);
    await expectRefusals((body) => h().owner.put(path(created.id), body), [
      [{}, /^styling: is required$/],
      [without('footer'), /^footer: is required$/],
      [settings((value) => delete value.styling.depth), /^styling\.depth: /],
      [settings((value) => (value.styling.primaryColor.light = 'red')), /^styling\.primaryColor\.light: must be a color such as #346DDB or #36D$/],
      [settings((value) => (value.styling.theme = 'neon')), /^styling\.theme: /],
      [settings((value) => (value.styling.font = 'Comic Sans')), /^styling\.font: /],
      [settings((value) => (value.styling.codeTheme.default.light = 'rainbow')), /^styling\.codeTheme\.default\.light: /],
      [settings((value) => (value.internationalization.locale = 'it')), /^internationalization\.locale: /],
      [settings((value) => (value.favicon = { icon: { light: 'data:image/png;base64,AA', dark: 'https://a.test/i.png' } })), /^favicon/],
      [settings((value) => (value.favicon = { other: true })), /^favicon: must be \{icon: \{light, dark\}\}, \{emoji\} or \{\}$/],
      [settings((value) => (value.title = 'A')), /^title: must be 2 to 128 characters$/],
      [settings((value) => (value.header.links = [{ title: 'X', links: [] }])), /^header\.links\.0\.to: /],
      [settings((value) => (value.header.links = [{ title: 'X', to: { kind: 'nowhere' }, links: [] }])), /^header\.links\.0\.to\.kind: /],
      [settings((value) => (value.header.links = [{ title: 'X', to: null, links: [], condition: 'x'.repeat(1025) }])), /^header\.links\.0\.condition: /],
      [settings((value) => (value.announcement = { enabled: true, message: 'A', style: 'info' })), /^announcement\.message: must be 2 to 128 characters$/],
      [settings((value) => (value.ai.suggestions = ['One?', 'Two?', 'Six?', 'Ten?', 'Why?', 'How?'])), /^ai\.suggestions: must have at most 5 questions$/],
      [settings((value) => (value.localizedTitle = { xx: 'Nope' })), /^localizedTitle/],
      [settings((value) => (value.privacyPolicy = { url: 'javascript:alert(1)' })), /^privacyPolicy\.url: must be an http or https URL$/],
      [settings((value) => (value.styling.font = { id: 'f', custom: true, fontFamily: 'F', fontFaces: [] })), /^styling\.font/],
    ]);
    expect(ok(await h().owner.get(path(created.id)))).toEqual(kept);
  });

  it('lets members with a role read the settings and only admins replace them; other organizations get 404', async () => {
    const created = await createSite();
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as (MemberRole | null)[]) {
      const caller = await h().user(role);
      expect((await caller.get(path(created.id))).status, `get as ${role}`).toBe(role === null ? 403 : 200);
      expect((await caller.put(path(created.id), settings())).status, `put as ${role}`).toBe(403);
    }
    expect(ok(await h().owner.get(path(created.id)))).toEqual(DEFAULT_CUSTOMIZATION);
    const stranger = (await h().organization()).owner;
    expect((await stranger.get(path(created.id))).status).toBe(404);
    expect((await stranger.put(path(created.id), settings())).status).toBe(404);
    expect((await (await h().user('admin')).put(path(created.id), settings())).status).toBe(200);
  });
});
