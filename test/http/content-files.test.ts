import { expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch/index.js';
import { downloadUrl } from '../../src/core/content/downloads.js';
import { urlsFor } from '../../src/core/context.js';
import { INDEXES, TABLES } from '../../src/core/records.js';
import { RESTORE_WINDOW_MS } from '../../src/core/spaces/trash.js';
import { authoring, md } from './authoring.js';
import { httpSuite, walkPages } from './harness.js';

/** Files: uploads by URL through the injected fetch, listing and paging, downloads, and what spaces do with content. */

/** What the fake web serves: URL → a function making the response (a new one per request). */
const web = new Map<string, () => Response | Promise<Response>>();

/** The injected fetch: answers from `web`, else fails as an unreachable host does. */
async function fakeFetch(url: string): Promise<Response> {
  const serve = web.get(url);
  if (!serve) throw new TypeError('fetch failed: getaddrinfo ENOTFOUND');
  return serve();
}

/** A 1x1 GIF. */
const GIF = Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21, 0xf9, 4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b]);

web.set('https://files.test/pixel.gif', () => new Response(GIF, { headers: { 'content-type': 'image/gif; charset=binary' } }));
web.set('https://files.test/readme', () => new Response('read me', { headers: { 'content-type': 'text/plain' } }));
web.set('https://files.test/missing', () => new Response('no', { status: 404 }));
web.set('https://files.test/huge', () => new Response(new Uint8Array(10 * 1024 * 1024 + 1)));
web.set('https://files.test/slow', () => new Promise<Response>(() => undefined));
web.set('https://files.test/page.svg', () => new Response('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', { headers: { 'content-type': 'image/svg+xml' } }));

httpSuite(
  'content files',
  (h) => {
    const a = authoring(h);

    async function fixture() {
      const space = await a.space();
      const cr = await a.changeRequest(space.id);
      return { space, cr };
    }

    /** Downloads through the Fetch handler, to see the bytes as they are. */
    async function download(url: string) {
      const response = await createFetchHandler(h().platform)(new Request(url));
      return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
    }

    it('fetches files by URL through the injected fetch, typed by the answer unless told, with image dimensions', async () => {
      const { space, cr } = await fixture();
      const made = await a.batchWithChanges(space.id, cr.id, [
        {
          operation: 'insert_files',
          files: [
            { name: 'pixel.gif', url: 'https://files.test/pixel.gif' },
            { name: 'README.md', url: 'https://files.test/readme', contentType: 'text/markdown' },
          ],
        },
      ]);
      const [pixel, readme] = made.insertedFiles;
      expect(pixel).toEqual({
        id: expect.any(String),
        name: 'pixel.gif',
        contentType: 'image/gif',
        downloadURL: expect.stringMatching(/\/v1\/downloads\/[^/]+\/pixel\.gif$/),
        size: GIF.length,
        dimensions: { width: 1, height: 1 },
        git: { oid: expect.stringMatching(/^[0-9a-f]{40}$/), path: '.gitbook/assets/pixel.gif' },
      });
      expect([readme.contentType, readme.size]).toEqual(['text/markdown', 7]);
      const fetched = await download(pixel.downloadURL);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes).toEqual(GIF);
      expect(fetched.headers.get('content-type')).toBe('image/gif');
      expect(fetched.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''pixel.gif");
      // The same bytes twice are one blob: both URLs name it.
      const again = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'copy.gif', url: 'https://files.test/pixel.gif' }] }]);
      expect((await download(again.insertedFiles[0].downloadURL)).bytes).toEqual(GIF);
    });

    it('refuses files that cannot be fetched, naming the file, with one message whatever the cause, and stores nothing', async () => {
      const { space, cr } = await fixture();
      const before = await a.stored(space.id);
      for (const [url, reason] of [
        ['https://files.test/missing', 'the URL could not be fetched'],
        ['https://files.test/unknown', 'the URL could not be fetched'],
        ['https://files.test/slow', 'the URL could not be fetched'],
        ['https://files.test/huge', `the URL's answer is more than ${10 * 1024 * 1024} bytes`],
      ]) {
        const refused = await a.send(space.id, cr.id, [
          { operation: 'insert_page', title: 'Before', document: md('x') },
          { operation: 'insert_files', files: [{ name: 'ok.txt', url: 'https://files.test/readme' }, { name: 'bad', url }] },
        ]);
        expect(refused.status, url).toBe(400);
        expect(refused.body.error.message).toBe(`changes[1].files[1].url: ${reason}`);
      }
      for (const url of ['ftp://files.test/x', 'not a url']) {
        const refused = await a.send(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x', url }] }]);
        expect(refused.body.error.message).toBe('changes.0.files.0.url: must be an http(s) URL');
      }
      expect(await a.stored(space.id)).toEqual(before);
    });

    it('does not fetch anything for a caller who may not edit', async () => {
      const { space, cr } = await fixture();
      const reader = await h().user('read');
      let fetched = 0;
      web.set('https://files.test/counted', () => {
        fetched++;
        return new Response('x');
      });
      const refused = await a.send(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'x', url: 'https://files.test/counted' }] }], reader);
      expect(refused.status).toBe(403);
      expect(fetched).toBe(0);
    });

    it('lists files by id, paged, and gets one; metadata=false drops git', async () => {
      const { space, cr } = await fixture();
      const files = Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, contentType: 'text/plain', base64: btoa(`file ${i}`) }));
      await a.batch(space.id, cr.id, [{ operation: 'insert_files', files }]);
      const path = `${a.contentOf(space.id, cr.id)}/files`;
      const all = await walkPages(h().owner, path, 2);
      expect(all.map((file) => file.name).sort()).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
      expect(all.map((file) => file.id)).toEqual([...all.map((file) => file.id)].sort());
      const first = await h().owner.get(`${path}?limit=2`);
      expect(first.body.count).toBe(5);
      expect(first.body.items).toEqual(all.slice(0, 2));
      const one = await h().owner.get(`${path}/${all[3].id}`);
      expect(one.body).toEqual(all[3]);
      const bare = await h().owner.get(`${path}/${all[3].id}?metadata=false`);
      const { git: _git, ...rest } = all[3];
      expect(bare.body).toEqual(rest);
      expect((await h().owner.get(`${path}?metadata=false`)).body.items.every((file: any) => file.git === undefined)).toBe(true);
      const missing = await h().owner.get(`${path}/nope`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('No file nope in change request 1');
      expect((await h().owner.get(`${a.contentOf(space.id)}/files/${all[0].id}`)).status).toBe(404);
      expect((await h().owner.get(`${path}?page=nope`)).status).toBe(400);
      // The revision lists every file.
      expect((await h().owner.get(a.contentOf(space.id, cr.id))).body.files).toEqual(all);
    });

    it('serves downloads only for URLs it signed, and not after they expire', async () => {
      const { space, cr } = await fixture();
      const made = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: btoa('secret') }] }]);
      const url = new URL(made.insertedFiles[0].downloadURL);
      const [, , , token] = url.pathname.split('/');
      const [payload, signature] = token.split('.');
      const forged = `${payload}.${signature.slice(0, -2)}AA`;
      // The name is signed too: the same bytes under another name (offered to save as) are refused.
      const renamed = [`/v1/downloads/${token}/other.txt`, `/v1/downloads/${token}/a.txt.exe`, `/v1/downloads/${token}/A.txt`, `/v1/downloads/${token}/a.txt%20`];
      for (const path of [`/v1/downloads/${forged}/a.txt`, `/v1/downloads/${payload}/a.txt`, '/v1/downloads/x.y/a.txt', ...renamed]) {
        const refused = await h().request('GET', path);
        expect(refused.status, path).toBe(404);
        expect(refused.body.error.message).toBe('This download URL is not valid, or has expired');
      }
      expect((await h().request('GET', `/v1/downloads/${token}/a.txt`)).text).toBe('secret');
      // A name that needs encoding comes back as it was signed.
      const odd = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'résumé #1 %?.txt', contentType: 'text/plain', base64: btoa('odd') }] }]);
      const oddUrl = new URL(odd.insertedFiles[0].downloadURL);
      expect((await h().request('GET', oddUrl.pathname)).text).toBe('odd');
      const digest = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))).d;
      const expiring = await downloadUrl(
        { urls: urlsFor('http://docs.test'), secrets: h().platform.secrets },
        { digest, contentType: 'text/plain', name: 'a.txt', expiresAt: new Date(h().clock.now().getTime() + 3600_000).toISOString() },
      );
      expect((await h().request('GET', new URL(expiring).pathname)).text).toBe('secret');
      h().clock.advance(3600_000 + 1000);
      expect((await h().request('GET', new URL(expiring).pathname)).status).toBe(404);
      expect((await h().request('GET', url.pathname)).status).toBe(200);
    });

    it('sends scriptable files as attachments that may not run scripts', async () => {
      const { space, cr } = await fixture();
      const made = await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_files', files: [{ name: 'page.svg', url: 'https://files.test/page.svg' }] }]);
      const fetched = await download(made.insertedFiles[0].downloadURL);
      expect(fetched.headers.get('content-type')).toBe('image/svg+xml');
      expect(fetched.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''page.svg");
      expect(fetched.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(fetched.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('duplicates a space with a copy of its content that shares nothing with it', async () => {
      const { space, cr } = await fixture();
      const edited = await a.batch(space.id, cr.id, [
        { operation: 'insert_page', ref: 'p', title: 'Parent', document: md('p') },
        { operation: 'insert_page', title: 'Child', into: 'p', document: md('c') },
        { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: btoa('a') }] },
      ]);
      await a.moveSpaceTo(space.id, edited.revision);
      const copy = await h().owner.post(`${a.spaces(space.id)}/duplicate`);
      expect(copy.status).toBe(201);
      const original = await h().owner.get(a.contentOf(space.id));
      const duplicate = await h().owner.get(a.contentOf(copy.body.id));
      expect(duplicate.body.parents).toEqual([]);
      // The copy's pages are the same but for their space and their bodies' ids (the bodies are copies).
      const strip = (value: unknown) =>
        JSON.parse(JSON.stringify(value, (key, inner) => (key === 'documentId' ? undefined : inner)).replaceAll(space.id, 'S').replaceAll(copy.body.id, 'S'));
      expect(strip(duplicate.body.pages)).toEqual(strip(original.body.pages));
      expect(duplicate.body.files.map((file: any) => file.name)).toEqual(['a.txt']);
      const child = a.byTitle(duplicate.body.pages, 'Child');
      expect((await a.page(copy.body.id, undefined, child.id)).markdown).toBe('c\n');
      // Purging the original leaves the copy whole.
      await h().owner.delete(a.spaces(space.id));
      h().clock.advance(RESTORE_WINDOW_MS + 1000);
      await h().platform.purgeDeletedSpaces();
      const left = await h().platform.store.read(async (tx) => ({
        nodes: (await tx.list(TABLES.contentNodes, { index: INDEXES.contentNodesBySpace, value: space.id, limit: 0 })).count,
        documents: (await tx.list(TABLES.contentDocuments, { index: INDEXES.contentDocumentsBySpace, value: space.id, limit: 0 })).count,
      }));
      expect(left).toEqual({ nodes: 0, documents: 0 });
      expect((await a.page(copy.body.id, undefined, child.id)).markdown).toBe('c\n');
      expect(a.outline(await a.pages(copy.body.id))).toEqual([['Parent', 'parent', [['Child', 'parent/child']]]]);
    });
  },
  { fetch: (url: string) => fakeFetch(url), fetchTimeoutMs: 200 },
);
