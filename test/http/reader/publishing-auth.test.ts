import { expect, it } from 'vitest';
import { MAX_VISITOR_TOKEN_SECONDS } from '../../../src/core/sites/reader/admission.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Visitor-auth sites: tokens signed with the publishing auth's private key open them; others go to the fallback URL or a 401. */
httpSuite('reader publishing auth', (h) => {
  const r = readerHelpers(h);
  const guarded = () =>
    r.publishedSite([
      { title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { title: 'Setup', document: { markdown: 'Steps.\n' } },
    ], { visibility: 'visitor-auth' });
  const auth = (siteId: string) => `${r.site(siteId)}/publishing/auth`;

  it('opens with a token signed with the private key, then by the cookie it sets; refuses other tokens', async () => {
    const site = await guarded();
    const key = await r.privateKey(site.id);
    expect((await r.read(`${site.url}?jwt_token=${await r.token('another key')}`)).status).toBe(401);
    expect((await r.read(`${site.url}?jwt_token=${await r.token(key, {}, -60)}`)).status).toBe(401);
    expect((await r.read(`${site.url}?jwt_token=not.a.jwt`)).status).toBe(401);
    const jwt = await r.token(key);
    const opened = await r.read(`${site.url}?jwt_token=${jwt}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie')).toMatch(/^dp_visitor=[\w.-]+; Path=\S+; HttpOnly; SameSite=Lax$/);
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${jwt}` } })).status).toBe(200);
  });

  it(`refuses a visitor token without an exp, or one valid for more than ${MAX_VISITOR_TOKEN_SECONDS / 86_400} days, and keeps no cookie of it`, async () => {
    const site = await guarded();
    const key = await r.privateKey(site.id);
    for (const seconds of [null, MAX_VISITOR_TOKEN_SECONDS + 1, 10 * 365 * 86_400]) {
      const refused = await r.read(`${site.url}?jwt_token=${await r.token(key, {}, seconds)}`);
      expect(refused.status, `exp in ${seconds} s`).toBe(401);
      expect(refused.text).toContain('open only to authenticated visitors');
      expect(refused.headers.get('set-cookie')).toBeNull();
    }
    // The longest allowed opens it, until it expires.
    const longest = await r.token(key, {}, MAX_VISITOR_TOKEN_SECONDS);
    expect((await r.read(`${site.url}?jwt_token=${longest}`)).status).toBe(200);
    h().clock.advance(MAX_VISITOR_TOKEN_SECONDS * 1000 + 1000);
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${longest}` } })).status).toBe(401);
  });

  it('stops taking the old tokens once the key is regenerated, and takes the new key at once', async () => {
    const site = await guarded();
    const oldKey = await r.privateKey(site.id);
    const old = await r.token(oldKey);
    const regenerated = r.ok(await h().owner.post(`${auth(site.id)}/regenerate`));
    expect(regenerated.privateKey).not.toBe(oldKey);
    expect(regenerated.privateKey).toBe(await r.privateKey(site.id));
    expect((await r.read(site.url, { headers: { cookie: `dp_visitor=${old}` } })).status).toBe(401);
    expect((await r.read(`${site.url}?jwt_token=${await r.token(regenerated.privateKey)}`)).status).toBe(200);
  });

  it('shows a visitor without a valid token a 401 page in the site layout, without its navigation', async () => {
    const site = await guarded();
    const denied = await r.read(`${site.url}/setup`);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('cache-control')).toBe('no-store');
    expect(r.heading(denied.text)).toBe('Sign in to read');
    expect(denied.text).toContain('<header class="site">');
    expect(denied.text).toContain('>Handbook</a>');
    expect(denied.text).toContain('noindex');
    // Neither the page tree nor the pages' titles.
    expect(denied.text).not.toContain('Welcome');
    expect(denied.text).not.toContain('Setup');
  });

  it('sends a visitor without a valid token to the fallback URL, naming the page asked for', async () => {
    const site = await guarded();
    r.ok(await h().owner.patch(auth(site.id), { backend: 'custom', fallbackURL: 'https://auth.acme.test/login?app=docs' }));
    const sent = await r.read(`${site.url}/setup?jwt_token=forged`);
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('https://auth.acme.test/login?app=docs&location=setup');
    expect((await r.read(site.url)).headers.get('location')).toBe('https://auth.acme.test/login?app=docs&location=');
    // A valid token still opens the page; without the fallback URL, the 401 page again.
    expect((await r.read(`${site.url}/setup?jwt_token=${await r.token(await r.privateKey(site.id))}`)).status).toBe(200);
    r.ok(await h().owner.patch(auth(site.id), { backend: 'custom', fallbackURL: null }));
    expect((await r.read(`${site.url}/setup`)).status).toBe(401);
  });
});
