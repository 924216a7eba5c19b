import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { expect, it } from 'vitest';
import { MAX_IMPORT_BYTES, MAX_ZIP_ENTRIES } from '../../src/core/content/import/schemas.js';
import { TABLES } from '../../src/core/records.js';
import { authoring } from '../http/authoring.js';
import { httpSuite } from '../http/harness.js';
import { git, hasGit, useGitServer } from './git-server.js';

/**
 * Git Sync's import through both adapters and the official client, against a real Git server on 127.0.0.1:
 * a repository in the hosted format imported into a space (tree, titles, bodies, files, redirects kept in
 * the format), git/info's state, the permission, the outbound filter, and credentials named nowhere.
 */

/** The part of the official client these tests use (its types do not resolve under NodeNext; see space-language.test.ts). */
interface GitClient {
  spaces: {
    importGitRepository(spaceId: string, data: { url: string; ref: string; repoProjectDirectory?: string }): Promise<{ status: number }>;
    getSpaceGitInfo(spaceId: string): Promise<{ data: any }>;
  };
}

const HOSTED = {
  'package.json': '{}',
  'docs/.gitbook.yaml': 'root: ./content/\nredirects:\n  help: guides/setup.md\n',
  'docs/content/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Setup](guides/setup.md "Set it up")\n* [Status](https://status.acme.test)\n\n## Reference\n\n* [API](reference/api.md)\n',
  'docs/content/README.md': '---\ndescription: Start here\n---\n\n# Welcome\n\nSee [setup](guides/setup.md).\n\n![Logo](.gitbook/assets/logo.svg)\n',
  'docs/content/guides/README.md': '# Guides\n\n{% hint style="info" %}\nKept verbatim.\n{% endhint %}\n',
  'docs/content/guides/setup.md': '# Setup\n\nInstall it.\n',
  'docs/content/reference/api.md': '# API\n',
  'docs/content/.gitbook/assets/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
};

const PASSWORD = 'hunter2-secret';
const server = useGitServer({}, (started) => {
  started.createRepository('docs');
  started.commit('docs', HOSTED, 'Docs in the hosted format');
});
const secured = useGitServer({ credentials: { user: 'deploy', password: PASSWORD } }, (started) => {
  started.createRepository('private');
  started.commit('private', { 'README.md': '# Private\n' });
});

httpSuite(
  'Git Sync import',
  (h) => {
    const a = authoring(h);
    /** Queues an import and waits for it to end (the work runs after the 204). */
    const gitImport = async (spaceId: string, body: unknown, caller = h().owner) => {
      h().clock.advance(1000);
      const answer = await caller.post(`/v1/spaces/${spaceId}/git/import`, body);
      await h().platform.settle();
      return answer;
    };
    const info = (spaceId: string, caller = h().owner) => caller.get(`/v1/spaces/${spaceId}/git/info`);
    /** A space with the hosted docs imported, its revision then, and an empty repository `<label>-<transport>` to fail with. */
    const importedSpace = async (label: string) => {
      const space = await a.space();
      expect((await gitImport(space.id, { url: `${server.url}/docs.git`, ref: 'refs/heads/main', repoProjectDirectory: 'docs' })).status).toBe(204);
      const before = (await h().owner.get(`/v1/spaces/${space.id}`)).body.revision;
      const name = `${label}-${h().transport}`;
      server.createRepository(name);
      return { space, before, name };
    };

    it('imports a repository in the hosted format into an empty space, through the official client', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const client = new GitBookAPI({
        endpoint: 'http://docs.test',
        authToken: h().owner.token,
        serviceBinding: { fetch: (input, init) => h().send(new URL(String(input)).pathname, init) },
      }) as unknown as GitClient;
      expect((await info(space.id)).status).toBe(404);
      const answer = await client.spaces.importGitRepository(space.id, { url: `${server.url}/docs.git`, ref: 'refs/heads/main', repoProjectDirectory: 'docs' });
      expect(answer.status).toBe(204);
      await h().platform.settle();
      const { data } = await client.spaces.getSpaceGitInfo(space.id);
      expect(data).toEqual({
        installationId: space.id,
        installationProvider: 'gitlab',
        installationStatus: 'active',
        repoName: 'docs',
        url: `${server.url}/docs.git`,
        operation: { state: 'success', direction: 'import', startedAt: expect.any(String), endedAt: expect.any(String) },
        operationTimeout: expect.any(Number),
        updatedAt: expect.any(String),
      });
      const tree = await a.pages(space.id);
      expect(a.outline(tree)).toEqual([
        ['Welcome', 'welcome'],
        ['Guides', 'guides', [['Set it up', 'guides/set-it-up']]],
        ['Status', undefined],
        ['Reference', 'reference', [['API', 'reference/api']]],
      ]);
      const welcome = a.byTitle(tree, 'Welcome');
      const setup = a.byTitle(tree, 'Set it up');
      expect(welcome.description).toBe('Start here');
      const files = (await h().owner.get(`${a.contentOf(space.id)}/files`)).body.items as any[];
      expect(files.map((file) => file.name)).toEqual(['logo.svg']);
      // git.oid: the blob id of the file each page and file was read from, as the repository has it.
      const clone = server.clone('docs');
      const blobOf = (path: string) => git(clone, 'rev-parse', `HEAD:docs/content/${path}`).trim();
      expect(welcome.git).toEqual({ oid: blobOf('README.md'), path: 'README.md' });
      expect(setup.git).toEqual({ oid: blobOf('guides/setup.md'), path: 'guides/setup.md' });
      // A page whose file holds its title alone has no body, and still that file's id.
      expect(a.byTitle(tree, 'API').git).toEqual({ oid: blobOf('reference/api.md'), path: 'reference/api.md' });
      expect(files[0].git).toEqual({ oid: blobOf('.gitbook/assets/logo.svg'), path: '.gitbook/assets/logo.svg' });
      const body = (await h().owner.get(`${a.contentOf(space.id)}/page/${welcome.id}?format=markdown`)).body.markdown;
      expect(body).toBe(`See [setup](/pages/${setup.id}).\n\n![Logo](/files/${files[0].id})\n`);
      const guides = (await h().owner.get(`${a.contentOf(space.id)}/page/${a.byTitle(tree, 'Guides').id}?format=markdown`)).body.markdown;
      expect(guides).toBe('{% hint style="info" %}\nKept verbatim.\n{% endhint %}\n');
    });

    it('answers 204 at once and runs the import after it: running, then success', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const before = (await h().owner.get(`/v1/spaces/${space.id}`)).body.revision;
      const release = server.hold();
      try {
        expect((await h().owner.post(`/v1/spaces/${space.id}/git/import`, { url: `${server.url}/docs.git`, ref: 'refs/heads/main', repoProjectDirectory: 'docs' })).status).toBe(204);
        const running = await info(space.id);
        expect(running.body.operation).toEqual({ state: 'running', direction: 'import', startedAt: expect.any(String) });
        expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
      } finally {
        release();
      }
      await h().platform.settle();
      expect((await info(space.id)).body.operation).toMatchObject({ state: 'success', endedAt: expect.any(String) });
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).not.toBe(before);
    });

    it('records a failure that names the problem and changes nothing: a missing branch, a refused address, a malformed summary', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const before = (await h().owner.get(`/v1/spaces/${space.id}`)).body.revision;
      expect((await gitImport(space.id, { url: `${server.url}/docs.git`, ref: 'refs/heads/nope' })).status).toBe(204);
      expect((await info(space.id)).body.operation).toMatchObject({ state: 'failure', direction: 'import', error: expect.stringContaining('docs.git') });
      server.createRepository('broken');
      server.commit('broken', { 'SUMMARY.md': '* [Out](../secret.md)\n', 'a.md': '# A' });
      expect((await gitImport(space.id, { url: `${server.url}/broken.git`, ref: 'refs/heads/main' })).status).toBe(204);
      expect((await info(space.id)).body.operation.error).toBe(`${server.url}/broken.git: SUMMARY.md: "../secret.md" points outside the docs`);
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
    });

    it('fails for a repository over the 5,000 files an import reads, changing nothing', { timeout: 60_000 }, async () => {
      const { space, before, name } = await importedSpace('many');
      server.bulkCommit(name, Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, n) => [`pages/page-${n}.md`, `# Page ${n}\n`] as const));
      expect((await gitImport(space.id, { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' })).status).toBe(204);
      expect((await info(space.id)).body.operation).toMatchObject({ state: 'failure', direction: 'import', error: `the repository holds more than ${MAX_ZIP_ENTRIES} files to read` });
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
      // The same repository's docs in a project directory of fewer files import.
      server.bulkCommit(name, [['docs/README.md', '# Small\n']], 'A small docs folder');
      expect((await gitImport(space.id, { url: `${server.url}/${name}.git`, ref: 'refs/heads/main', repoProjectDirectory: 'docs' })).status).toBe(204);
      expect((await info(space.id)).body.operation).toMatchObject({ state: 'success', direction: 'import' });
    });

    it('fails for a symbolic link among the docs and for a file over the size limit, changing nothing', { timeout: 60_000 }, async () => {
      const { space, before, name } = await importedSpace('unsafe');
      server.commit(name, { 'README.md': '# Home\n' });
      const work = server.clone(name);
      symlinkSync('/etc/passwd', join(work, 'secret.md'));
      git(work, 'add', 'secret.md');
      git(work, 'commit', '-q', '-m', 'A link out');
      git(work, 'push', '-q', 'origin', 'main');
      expect((await gitImport(space.id, { url: `${server.url}/${name}.git`, ref: 'refs/heads/main' })).status).toBe(204);
      expect((await info(space.id)).body.operation).toMatchObject({ state: 'failure', error: `${server.url}/${name}.git: secret.md is a symbolic link; the docs may hold none` });
      const large = `large-${h().transport}`;
      server.createRepository(large);
      server.commit(large, { 'README.md': '# Home\n', 'big.md': `# Big\n\n${'x'.repeat(MAX_IMPORT_BYTES)}\n` });
      expect((await gitImport(space.id, { url: `${server.url}/${large}.git`, ref: 'refs/heads/main' })).status).toBe(204);
      expect((await info(space.id)).body.operation.error).toBe(`big.md holds ${MAX_IMPORT_BYTES + 8} bytes, more than ${MAX_IMPORT_BYTES}`);
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).toBe(before);
    });

    it('uses credentials for the connection only: never in an answer or a stored record', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const url = `${secured.authUrl}/private.git`;
      expect((await gitImport(space.id, { url, ref: 'refs/heads/main' })).status).toBe(204);
      const state = await info(space.id);
      expect(state.body).toMatchObject({ url: `${secured.url}/private.git`, operation: { state: 'success' } });
      expect((await gitImport(space.id, { url: url.replace(PASSWORD, 'wrong'), ref: 'refs/heads/main' })).status).toBe(204);
      const failed = await info(space.id);
      expect(failed.body.operation.state).toBe('failure');
      const stored = await h().platform.store.read((tx) => tx.get(TABLES.gitSyncs, space.id));
      for (const text of [state.text, failed.text, JSON.stringify(stored)]) expect(text).not.toMatch(/hunter2|deploy:/);
    });

    it('needs triggerGitSync (edit) to import, and view to read the state', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const reader = await h().user('read');
      const body = { url: `${server.url}/docs.git`, ref: 'refs/heads/main' };
      expect((await gitImport(space.id, body, reader)).status).toBe(403);
      expect((await gitImport(space.id, { ...body, ref: 'main' })).status).toBe(400);
      expect((await gitImport(space.id, { ...body, url: 'ftp://x' })).status).toBe(400);
      expect((await info(space.id, reader)).status).toBe(404);
      expect((await gitImport(space.id, body)).status).toBe(204);
      expect((await info(space.id, reader)).body.operation.state).toBe('success');
      const stranger = await h().organization();
      expect((await info(space.id, stranger.owner)).status).toBe(404);
    });
  },
  { fetchAllow: ['127.0.0.1'] },
);

httpSuite('Git Sync import without an allow list', (h) => {
  const a = authoring(h);
  it('fails with the outbound filter\'s message', { timeout: 60_000 }, async () => {
    const space = await a.space();
    expect((await h().owner.post(`/v1/spaces/${space.id}/git/import`, { url: `${server.url}/docs.git`, ref: 'refs/heads/main' })).status).toBe(204);
    await h().platform.settle();
    expect((await h().owner.get(`/v1/spaces/${space.id}/git/info`)).body.operation.error).toBe(`${server.url}/docs.git could not be reached: 127.0.0.1 is a loopback address`);
  });
});
