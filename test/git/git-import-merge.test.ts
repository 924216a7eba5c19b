import { GitBookAPI } from '@gitbook/api';
import { expect, it } from 'vitest';
import { TABLES } from '../../src/core/records.js';
import { authoring } from '../http/authoring.js';
import { httpSuite } from '../http/harness.js';
import { git, useGitServer } from './git-server.js';

/**
 * Git Sync's later imports, through both adapters and the official client against a real Git server: pushes made with the `git`
 * command line merged three ways with what was edited on the platform since the last sync (the change
 * requests' merge), a true conflict failing with the pages it names and then forced, and the imports
 * that change nothing (the same commit again, an older timestamp).
 */

/** The part of the official client these tests use (its types do not resolve under NodeNext; see space-language.test.ts). */
interface GitClient {
  spaces: {
    importGitRepository(spaceId: string, data: Record<string, unknown> & { url: string; ref: string }): Promise<{ status: number }>;
    getSpaceGitInfo(spaceId: string): Promise<{ data: any }>;
  };
}

const DOCS = {
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Setup](guides/setup.md "Set it up")\n* [API](api.md)\n',
  'README.md': '# Welcome\n\nHello.\n',
  'guides/README.md': '# Guides\n\nAll the guides.\n',
  'guides/setup.md': '# Setup\n\nInstall it.\n\nRun it.\n\nStop it.\n',
  'api.md': '# API\n\nThe API.\n',
};

const server = useGitServer();
let repositories = 0;

httpSuite(
  'Git Sync import merged with the platform\'s edits',
  (h) => {
    const a = authoring(h);
    /** The official client, as the owner, through the harness's transport. */
    const client = () =>
      new GitBookAPI({
        endpoint: 'http://docs.test',
        authToken: h().owner.token,
        serviceBinding: { fetch: (input, init) => h().send(new URL(String(input)).pathname, init) },
      }) as unknown as GitClient;
    const info = async (spaceId: string) => (await client().spaces.getSpaceGitInfo(spaceId)).data;
    const revisionOf = async (spaceId: string) => (await h().owner.get(`/v1/spaces/${spaceId}`)).body.revision as string;
    const body = async (spaceId: string, pageId: string) => (await h().owner.get(`${a.contentOf(spaceId)}/page/${pageId}?format=markdown`)).body.markdown as string;

    /** Queues an import and waits for it to end. */
    async function gitImport(spaceId: string, url: string, extra: Record<string, unknown> = {}) {
      h().clock.advance(1000);
      const answer = await client().spaces.importGitRepository(spaceId, { url, ref: 'refs/heads/main', ...extra });
      expect(answer.status).toBe(204);
      await h().platform.settle();
      return (await info(spaceId)).operation;
    }

    /** Edits the space's live content on the platform: a change request with these changes, merged. */
    async function platformEdit(spaceId: string, changes: unknown[]) {
      const cr = await a.changeRequest(spaceId);
      await a.batch(spaceId, cr.id, changes);
      h().clock.advance(1000);
      const merged = await h().owner.post(`${a.changeRequestPath(spaceId, cr.id)}/merge`);
      expect(merged.status, merged.text).toBe(200);
    }

    /** A space synced with a new repository in DOCS; its pages by title. */
    async function synced() {
      const name = `docs-${++repositories}`;
      server.createRepository(name);
      server.commit(name, DOCS, 'The docs');
      const space = await a.space();
      const url = `${server.url}/${name}.git`;
      expect(await gitImport(space.id, url)).toMatchObject({ state: 'success' });
      const tree = await a.pages(space.id);
      const ids = Object.fromEntries(a.flatten(tree).map((page) => [page.title, page.id as string]));
      return { spaceId: space.id, name, url, ids };
    }

    it('keeps the platform\'s edits that a push did not touch, and gives pages that stayed their ids', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      await platformEdit(spaceId, [{ operation: 'update_page', page: ids.API, document: { markdown: 'The API, edited on the platform.\n' } }]);
      await platformEdit(spaceId, [{ operation: 'insert_page', title: 'Platform only', document: { markdown: 'Made on the platform.\n' } }]);
      server.commit(name, { 'guides/setup.md': '# Setup\n\nInstall it with npm.\n\nRun it.\n\nStop it.\n', 'faq.md': '# FAQ\n\nAsk.\n', 'SUMMARY.md': `${DOCS['SUMMARY.md']}* [FAQ](faq.md)\n` }, 'Setup with npm, and a FAQ');
      const before = await revisionOf(spaceId);
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      const tree = await a.pages(spaceId);
      expect(a.flatten(tree).map((page) => page.title)).toEqual(['Welcome', 'Guides', 'Set it up', 'API', 'Platform only', 'FAQ']);
      for (const title of ['Welcome', 'Guides', 'Set it up', 'API']) expect(a.byTitle(tree, title).id).toBe(ids[title]);
      expect(await body(spaceId, ids['Set it up'])).toBe('Install it with npm.\n\nRun it.\n\nStop it.\n');
      expect(await body(spaceId, ids.API)).toBe('The API, edited on the platform.\n');
      expect(await body(spaceId, a.byTitle(tree, 'FAQ').id)).toBe('Ask.\n');
      // One new revision of the space: the merge of its content with the repository's side.
      const revision = (await h().owner.get(`/v1/spaces/${spaceId}/revisions/${await revisionOf(spaceId)}`)).body;
      expect(revision).toMatchObject({ type: 'merge', parents: [before, expect.any(String)] });
    });

    it('takes a push alone when nothing changed on the platform since the last sync: renames, moves, deletions', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      server.commit(name, {
        'SUMMARY.md': '# Table of contents\n\n* [API](api.md)\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n',
        'guides/setup.md': null,
        'api.md': '# API reference\n\nThe API.\n',
      });
      const before = await revisionOf(spaceId);
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      const tree = await a.pages(spaceId);
      expect(a.outline(tree)).toEqual([['API reference', 'api'], ['Welcome', 'welcome'], ['Guides', 'guides']]);
      expect(a.byTitle(tree, 'API reference').id).toBe(ids.API);
      expect((await h().owner.get(`/v1/spaces/${spaceId}/revisions/${await revisionOf(spaceId)}`)).body).toMatchObject({ type: 'edits', parents: [before] });
    });

    it('fails on a true conflict, naming the page, and changes nothing; force lets the repository win', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      await platformEdit(spaceId, [{ operation: 'update_page', page: ids['Set it up'], document: { markdown: 'Install it with yarn.\n\nRun it.\n\nStop it.\n' } }]);
      server.commit(name, { 'guides/setup.md': '# Setup\n\nInstall it with pnpm.\n\nRun it.\n\nStop it.\n', 'README.md': '# Welcome\n\nHello again.\n' });
      const before = await revisionOf(spaceId);
      const failed = await gitImport(spaceId, url);
      expect(failed).toMatchObject({ state: 'failure', direction: 'import' });
      expect(failed.error).toBe(
        'The space and the repository both changed page "Set it up" (the same lines of its text) since the last sync. Make them agree on one side, or import again with force to let the repository win',
      );
      expect(await revisionOf(spaceId)).toBe(before);
      expect(await gitImport(spaceId, url, { force: true })).toMatchObject({ state: 'success' });
      expect(await body(spaceId, ids['Set it up'])).toBe('Install it with pnpm.\n\nRun it.\n\nStop it.\n');
      expect(await body(spaceId, ids.Welcome)).toBe('Hello again.\n');
    });

    it('gives a page whose front matter alone changed the blob id of its new file, keeping its body', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      server.commit(name, { 'api.md': '---\ndescription: Every endpoint\n---\n\n# API\n\nThe API.\n' }, 'Describe the API page');
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      const page = (await h().owner.get(`${a.contentOf(spaceId)}/page/${ids.API}`)).body;
      expect(page.description).toBe('Every endpoint');
      expect(await body(spaceId, ids.API)).toBe('The API.\n');
      expect(page.git).toEqual({ oid: git(server.clone(name), 'rev-parse', 'HEAD:api.md').trim(), path: 'api.md' });
    });

    it('takes a page layout from the front matter, and keeps the platform\'s where the file sets none', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      await platformEdit(spaceId, [{ operation: 'update_page', page: ids.API, layout: { outline: false } }]);
      server.commit(name, { 'README.md': '---\nlayout:\n  title:\n    visible: false\n  width: wide\n---\n\n# Welcome\n\nHello.\n' });
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      const layout = async (pageId: string) => (await h().owner.get(`${a.contentOf(spaceId)}/page/${pageId}`)).body.layout;
      expect(await layout(ids.Welcome)).toMatchObject({ title: false, width: 'wide', outline: true });
      expect(await layout(ids.API)).toMatchObject({ title: true, width: 'default', outline: false });
    });

    it('puts a standalone import in a new change request, open for review, and leaves the space and its sync as they were', { timeout: 60_000 }, async () => {
      const { spaceId, name, url, ids } = await synced();
      const synced1 = (await h().platform.store.read((tx) => tx.get(TABLES.gitSyncs, spaceId))) as Record<string, unknown>;
      server.commit(name, { 'api.md': '# API\n\nThe API, from a branch.\n' }, 'Describe the API better\n\nA longer body.');
      const before = await revisionOf(spaceId);
      expect(await gitImport(spaceId, url, { standalone: true })).toMatchObject({ state: 'success' });
      expect(await revisionOf(spaceId)).toBe(before);
      const list = (await h().owner.get(`${a.changeRequests(spaceId)}?status=open`)).body.items as any[];
      expect(list.map((cr) => cr.subject)).toEqual(['Describe the API better']);
      const cr = list[0];
      expect((await h().owner.get(`${a.contentOf(spaceId, cr.id)}/page/${ids.API}?format=markdown`)).body.markdown).toBe('The API, from a branch.\n');
      const stored = (await h().platform.store.read((tx) => tx.get(TABLES.gitSyncs, spaceId))) as Record<string, unknown>;
      expect([stored.revision, stored.commit]).toEqual([synced1.revision, synced1.commit]);
      h().clock.advance(1000);
      expect((await h().owner.post(`${a.changeRequestPath(spaceId, cr.id)}/merge`)).status).toBe(200);
      expect(await body(spaceId, ids.API)).toBe('The API, from a branch.\n');
    });

    it('gives the revisions the commit as `git`, and takes a commit the platform made of this space as nothing new', { timeout: 60_000 }, async () => {
      const { spaceId, name, url } = await synced();
      const oid = server.commit(name, { 'api.md': '# API\n\nChanged.\n' }, 'Change the API page');
      expect(await gitImport(spaceId, url, { repoCommitURL: 'https://git.acme.test/docs/commit/' })).toMatchObject({ state: 'success' });
      const revision = (await h().owner.get(`/v1/spaces/${spaceId}/revisions/${await revisionOf(spaceId)}`)).body;
      expect(revision.git).toEqual({ oid, message: 'Change the API page\n', ref: 'refs/heads/main', url: `https://git.acme.test/docs/commit/${oid}`, createdByService: false });
      const before = await revisionOf(spaceId);
      server.commit(name, { 'api.md': '# API\n\nExported.\n' }, `Merge change request #1\n\nDocs-Platform-Revision: ${spaceId}/${before}`);
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      expect(await revisionOf(spaceId)).toBe(before);
    });

    it('changes nothing for the commit it synced last, or for an import older than the last one applied', { timeout: 60_000 }, async () => {
      const { spaceId, name, url } = await synced();
      const before = await revisionOf(spaceId);
      expect(await gitImport(spaceId, url)).toMatchObject({ state: 'success' });
      expect(await revisionOf(spaceId)).toBe(before);
      expect(await gitImport(spaceId, url, { timestamp: '2026-01-02T00:00:00.000Z', force: true })).toMatchObject({ state: 'success' });
      const applied = await revisionOf(spaceId);
      server.commit(name, { 'api.md': '# API\n\nNewer.\n' });
      expect(await gitImport(spaceId, url, { timestamp: '2026-01-01T00:00:00.000Z' })).toMatchObject({ state: 'success' });
      expect(await revisionOf(spaceId)).toBe(applied);
      expect(await gitImport(spaceId, url, { timestamp: '2026-01-03T00:00:00.000Z' })).toMatchObject({ state: 'success' });
      expect(await revisionOf(spaceId)).not.toBe(applied);
    });

    it('imports from another repository as that repository\'s first import, never merged against the old one\'s base', { timeout: 60_000 }, async () => {
      const { spaceId, ids } = await synced();
      await platformEdit(spaceId, [{ operation: 'update_page', page: ids.API, document: { markdown: 'The API, edited on the platform.\n' } }]);
      const other = `docs-${++repositories}`;
      server.createRepository(other);
      server.commit(other, { ...DOCS, 'api.md': '# API\n\nThe API of the other repository.\n' }, 'The docs elsewhere');
      const otherUrl = `${server.url}/${other}.git`;
      // Against the old base, both sides changed the API page's text: a conflict. The other repository has no base yet: it wins.
      const before = await revisionOf(spaceId);
      expect(await gitImport(spaceId, otherUrl)).toMatchObject({ state: 'success' });
      expect((await info(spaceId)).url).toBe(otherUrl);
      let tree = await a.pages(spaceId);
      expect(await body(spaceId, a.byTitle(tree, 'API').id)).toBe('The API of the other repository.\n');
      expect((await h().owner.get(`/v1/spaces/${spaceId}/revisions/${await revisionOf(spaceId)}`)).body).toMatchObject({ type: 'edits', parents: [before] });
      // From then on the other repository's commit is the base: a push to it and a platform edit both survive.
      const welcome = a.byTitle(tree, 'Welcome').id;
      await platformEdit(spaceId, [{ operation: 'update_page', page: welcome, document: { markdown: 'Hello from the platform.\n' } }]);
      server.commit(other, { 'api.md': '# API\n\nThe API, pushed.\n' }, 'Push the API');
      expect(await gitImport(spaceId, otherUrl)).toMatchObject({ state: 'success' });
      tree = await a.pages(spaceId);
      expect(await body(spaceId, a.byTitle(tree, 'API').id)).toBe('The API, pushed.\n');
      expect(await body(spaceId, welcome)).toBe('Hello from the platform.\n');
    });
  },
  { fetchAllow: ['127.0.0.1'] },
);
