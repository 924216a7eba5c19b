import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** ETag (the revision), Cache-Control and 304; 404 pages in the site's layout; methods other than GET and HEAD. */
httpSuite('reader caching and errors', (h) => {
  const r = readerHelpers(h);

  it('answers a conditional request with 304 until the content changes, then with the new page', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'First.\n' } }]);
    const first = await r.read(site.url);
    const etag = first.headers.get('etag')!;
    const { revision } = r.ok(await h().owner.get(`/v1/spaces/${site.space}`));
    expect(etag).toMatch(new RegExp(`^"${revision}\\.[\\w-]+"$`));
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    const again = await r.read(site.url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await r.read(site.url, { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    // The same revision under another title of the site is another page.
    r.ok(await h().owner.patch(r.site(site.id), { title: 'Renamed handbook' }));
    const renamed = await r.read(site.url, { headers: { 'if-none-match': etag } });
    expect(renamed.status).toBe(200);
    expect(renamed.text).toContain('Renamed handbook');
    const pageId = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content`)).pages[0].id;
    await r.write(site.space, [{ operation: 'update_page', page: pageId, document: { markdown: 'Second.\n' } }]);
    const changed = await r.read(site.url, { headers: { 'if-none-match': renamed.headers.get('etag')! } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('Second.');
    expect(changed.headers.get('etag')).not.toBe(renamed.headers.get('etag'));
  });

  it('answers an unknown path under a site with a 404 page in the site layout, and HEAD without a body', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const missing = await r.read(`${site.url}/no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found');
    expect(missing.text).toContain('<a class="title" href="');
    expect(missing.text).toContain('>Welcome</a>');
    const { pathname } = new URL(site.url);
    const head = await h().request('HEAD', pathname, { token: null });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await h().request('POST', pathname, { token: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await h().request('GET', '/published/x', { token: null })).status).toBe(404);
    expect((await h().request('GET', '/published/o/%E0%A4%A/x', { token: null })).status).toBe(404);
  });

  it('marks share-link and visitor-auth pages private to caches', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }], { visibility: 'share-link' });
    const response = await r.read((await r.shareLink(site.id)).url);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(response.headers.get('vary')).toBe('Cookie, Accept-Encoding');
  });
});
