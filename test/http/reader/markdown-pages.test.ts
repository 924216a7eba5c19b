import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Every published page as Markdown at its URL plus `.md`: content, links, visibility and caching as the HTML page's. */
httpSuite('reader Markdown pages', (h) => {
  const r = readerHelpers(h);

  /** Reads a `.md` URL that must answer 200, checking its type; answers its text. */
  async function markdown(url: string, options = {}): Promise<string> {
    const response = await r.read(url, options);
    expect(response.status, `${url}: ${response.text.slice(0, 300)}`).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    return response.text;
  }

  it('answers a page as its title, description and body, links to pages leading to their .md URLs, blocks kept', async () => {
    const body = [
      'Read the [setup](./setup) and [its part](./setup#install-it), or [here](#top).',
      '',
      '{% hint style="info" %}',
      'A hint, kept as written.',
      '{% endhint %}',
      '',
      '```md',
      '[not a link](/pages/setup)',
      '```',
      '',
      '[ref]: ./setup "Setup"',
      '',
    ].join('\n');
    const site = await r.publishedSite([
      { title: 'Welcome', ref: 'welcome', description: 'Start here', document: { markdown: body } },
      { title: 'Setup', ref: 'setup', document: { markdown: '## Install it\n\nRun it.\n' } },
      { title: 'Deep', into: 'setup', document: { markdown: 'Deeper.\n' } },
    ]);
    const text = await markdown(`${site.url}/welcome.md`);
    const setup = `${site.url}/setup.md`;
    expect(text).toBe(
      [
        '# Welcome',
        '',
        'Start here',
        '',
        `Read the [setup](${setup}) and [its part](${setup}#install-it), or [here](#top).`,
        '',
        '{% hint style="info" %}',
        'A hint, kept as written.',
        '{% endhint %}',
        '',
        '```md',
        '[not a link](/pages/setup)',
        '```',
        '',
        `[ref]: ${setup} "Setup"`,
        '',
      ].join('\n'),
    );
    expect(await markdown(setup)).toBe('# Setup\n\n## Install it\n\nRun it.\n');
    expect(await markdown(`${site.url}/setup/deep.md`)).toBe('# Deep\n\nDeeper.\n');
    // The HTML page names its Markdown version, and that URL answers.
    const html = await r.page(`${site.url}/welcome`);
    expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${site.url}/welcome.md">`);
    expect(await r.page(site.url)).toContain(`<link rel="alternate" type="text/markdown" href="${site.url}/welcome.md">`);
  });

  it('links files to their download URLs, and leaves a link to a page that is not there as written', async () => {
    const space = await r.spaceWith('Guide', []);
    const { files } = await r.write(space, [{ operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: 'iVBORw0KGgo=' }] }]);
    await r.write(space, [{ operation: 'insert_page', title: 'Pictures', document: { markdown: `![a pixel](/files/${files[0].id}) [gone](/pages/nosuchpage)\n` } }]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const text = await markdown(`${(await r.published(created.id)).site.urls.published}/pictures.md`);
    expect(text).toMatch(/^# Pictures\n\n!\[a pixel\]\(http:\/\/[^)]+\/v1\/downloads\/[^/]+\/pixel\.png\) \[gone\]\(\/pages\/nosuchpage\)\n$/);
  });

  it('renders a computed OpenAPI page as Markdown: operations, parameters, request body and responses', async () => {
    const spec = {
      openapi: '3.0.0',
      info: { title: 'Pets', version: '1' },
      paths: { '/pets': { get: { summary: 'List pets', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' }, description: 'How many' }], responses: { '200': { description: 'The pets' } } } } },
    };
    r.ok(await h().owner.post(`/v1/orgs/${h().organizationId}/openapi`, { slug: 'pets', source: { text: JSON.stringify(spec) } }), 201);
    await h().platform.settle();
    const computed = { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} };
    const site = await r.publishedSite([{ title: 'Intro', document: { markdown: 'Hi.\n' } }, { type: 'computed', title: 'API reference', computed }]);
    const text = await markdown(`${site.url}/api-reference.md`);
    expect(text.startsWith('# API reference\n\n')).toBe(true);
    expect(text).toMatch(/## GET `\/pets`/);
    expect(text).toContain('List pets');
    expect(text).toMatch(/\| `limit` +\| query +\| integer +\| no +\| How many\. +\|/);
  });

  it('refuses a page slug ending in .md (the Markdown of the page before it is there), and answers 404 for a .md of nothing', async () => {
    const site = await r.publishedSite([{ title: 'Notes', document: { markdown: 'The notes.\n' } }]);
    const request = r.ok(await h().owner.post(`/v1/spaces/${site.space}/change-requests`, {}), 201);
    const refused = await h().owner.post(`/v1/spaces/${site.space}/change-requests/${request.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Notes file', slug: 'notes.md', document: { markdown: 'A page called notes.md.\n' } }],
    });
    expect(refused.status).toBe(400);
    expect(await markdown(`${site.url}/notes.md`)).toBe('# Notes\n\nThe notes.\n');
    expect((await r.read(`${site.url}/nothing.md`)).status).toBe(404);
    expect((await r.read(`${site.url}/.md`)).status).toBe(404);
  });

  it('answers a conditional request with 304 until the page changes, private to caches and noindex where the HTML is', async () => {
    const site = await r.publishedSite([
      { title: 'Welcome', document: { markdown: 'First.\n' } },
      { title: 'Quiet', noRobotsIndex: true, document: { markdown: 'Shh.\n' } },
    ]);
    const first = await r.read(`${site.url}/welcome.md`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+\.md\.[\w-]+"$/);
    expect(etag).not.toBe((await r.read(`${site.url}/welcome`)).headers.get('etag'));
    expect(first.headers.get('cache-control')).toBe('public, no-cache');
    expect(first.headers.get('x-robots-tag')).toBeNull();
    const again = await r.read(`${site.url}/welcome.md`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const pageId = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content`)).pages[0].id;
    await r.write(site.space, [{ operation: 'update_page', page: pageId, document: { markdown: 'Second.\n' } }]);
    const changed = await r.read(`${site.url}/welcome.md`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.text).toBe('# Welcome\n\nSecond.\n');
    expect((await r.read(`${site.url}/quiet.md`)).headers.get('x-robots-tag')).toBe('noindex');
  });

  it('keeps the visibility of the HTML: share links, visitor tokens and adaptive conditions', async () => {
    const shared = await r.publishedSite([{ title: 'Secret', document: { markdown: 'Shared.\n' } }], { visibility: 'share-link' });
    expect((await r.read(`${shared.url}/secret.md`)).status).toBe(404);
    const link = await r.shareLink(shared.id);
    const withKey = await r.read(`${shared.url}/secret.md?share=${link.key}`);
    expect(withKey.text).toBe('# Secret\n\nShared.\n');
    expect(withKey.headers.get('cache-control')).toBe('private, no-cache');
    expect(withKey.headers.get('x-robots-tag')).toBe('noindex');
    expect(withKey.headers.get('set-cookie')).toMatch(/^dp_share=/);

    const guarded = await r.publishedSite([{ title: 'Members', document: { markdown: 'Inside.\n' } }], { visibility: 'visitor-auth' });
    expect((await r.read(`${guarded.url}/members.md`)).status).toBe(401);
    const token = await r.token(await r.privateKey(guarded.id));
    expect(await markdown(`${guarded.url}/members.md?jwt_token=${token}`)).toBe('# Members\n\nInside.\n');

    const site = await r.betaSite();
    const betaUrl = `${site.betaUrl}/beta-page.md`;
    expect((await r.read(betaUrl)).status).toBe(404);
    expect(await markdown(`${betaUrl}?jwt_token=${site.betaToken}`)).toBe('# Beta page\n\nFor beta users.\n');
  });
});
