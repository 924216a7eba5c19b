import { expect, it } from 'vitest';
import { httpSuite } from '../http/harness.js';
import { readerHelpers } from '../http/reader/reader-helpers.js';
import { useGitServer } from './git-server.js';

/**
 * `.gitbook.yaml` redirects become the redirects of every site that shows the space, under the site
 * space's URL, leading to the pages; the next import updates them or deletes those no longer listed, and
 * leaves alone a redirect from the same source that the site's admins made.
 */

const server = useGitServer();
let repositories = 0;

httpSuite(
  'Git Sync redirects',
  (h) => {
    const r = readerHelpers(h);
    const resolve = (siteId: string, source: string) => h().owner.get(`${r.site(siteId)}/redirect?source=${encodeURIComponent(source)}`);

    async function gitImport(spaceId: string, url: string) {
      h().clock.advance(1000);
      expect((await h().owner.post(`/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' })).status).toBe(204);
      await h().platform.settle();
      expect((await h().owner.get(`/v1/spaces/${spaceId}/git/info`)).body.operation).toMatchObject({ state: 'success' });
    }

    it('makes the site redirects of .gitbook.yaml where the space is published, then keeps them in step', { timeout: 60_000 }, async () => {
      const name = `redirects-${++repositories}`;
      server.createRepository(name);
      server.commit(name, {
        '.gitbook.yaml': 'redirects:\n  help: support.md\n  old/start: README.md\n',
        'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Support](support.md)\n',
        'README.md': '# Welcome\n',
        'support.md': '# Support\n',
      });
      const site = await r.publishedSite([]);
      const taken = r.ok(await h().owner.post(`${r.site(site.id)}/redirects`, { source: '/old/start', destination: { kind: 'external', url: 'https://example.com/' } }), 201);
      const url = `${server.url}/${name}.git`;
      await gitImport(site.space, url);
      expect(r.ok(await resolve(site.id, '/help')).target).toBe(`${site.url}/support`);
      // The admins' own redirect from the same source stays theirs.
      expect(r.ok(await resolve(site.id, '/old/start')).redirect).toEqual(taken);
      server.commit(name, { '.gitbook.yaml': 'redirects:\n  aide: support.md\n' });
      await gitImport(site.space, url);
      expect((await resolve(site.id, '/help')).status).toBe(404);
      expect(r.ok(await resolve(site.id, '/aide')).target).toBe(`${site.url}/support`);
      expect(r.ok(await resolve(site.id, '/old/start')).redirect).toEqual(taken);
    });
  },
  { fetchAllow: ['127.0.0.1'] },
);
