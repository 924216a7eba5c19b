import { GitBookAPI } from '@gitbook/api';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { TABLES } from '../../src/core/records.js';
import { authoring, md } from '../http/authoring.js';
import { httpSuite } from '../http/harness.js';
import { git, useGitServer } from './git-server.js';

/**
 * Git Sync's export through both adapters and the official client, against a real Git server on 127.0.0.1,
 * checked with the `git` command line: edits on the platform committed on the branch's head (files, message,
 * author, committer, code and CI files kept), no commit for an unchanged space, a branch with commits the
 * space has not imported refused then forced, the revision's `git`, credentials named nowhere, the outbound
 * filter, and a space exported then imported into a new space.
 */

/** The part of the official client these tests use (its types do not resolve under NodeNext; see space-language.test.ts). */
interface GitClient {
  spaces: {
    exportToGitRepository(spaceId: string, data: { url: string; ref: string; commitMessage: string; repoProjectDirectory?: string }): Promise<{ status: number }>;
    getSpaceGitInfo(spaceId: string): Promise<{ data: any }>;
  };
}

const CODE = {
  'package.json': '{"name":"acme"}\n',
  'src/index.ts': 'export const answer = 42;\n',
  '.github/workflows/ci.yml': 'on: push\n',
  'docs/CONTRIBUTING.md': '# Not a page\n',
  'docs/.gitbook.yaml': 'root: ./content/\n',
  'docs/content/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n',
  'docs/content/README.md': '# Welcome\n\nHello.\n',
  'docs/content/setup.md': '# Setup\n\nInstall it.\n',
  'docs/content/NOTES.md': 'Not in the summary: not a page.\n',
};

const PASSWORD = 'hunter2-secret';
const server = useGitServer();
const secured = useGitServer({ credentials: { user: 'deploy', password: PASSWORD } });

/** A fresh repository holding `files`, and its URL. */
let repositories = 0;
function repository(files: Record<string, string> = CODE, on = server): { name: string; url: string } {
  const name = `repo${++repositories}`;
  on.createRepository(name);
  on.commit(name, files, 'First');
  return { name, url: `${on.url}/${name}.git` };
}

httpSuite(
  'Git Sync export',
  (h) => {
    const a = authoring(h);
    const post = (spaceId: string, direction: 'import' | 'export', body: unknown, caller = h().owner) => {
      h().clock.advance(1000);
      return caller.post(`/v1/spaces/${spaceId}/git/${direction}`, body);
    };
    /** Exports and waits for the run in the background to end. */
    const gitExport = async (spaceId: string, body: Record<string, unknown>) => {
      const answer = await post(spaceId, 'export', { ref: 'refs/heads/main', commitMessage: 'Update the docs', ...body });
      expect(answer.status, answer.text).toBe(204);
      await h().platform.settle();
      return (await h().owner.get(`/v1/spaces/${spaceId}/git/info`)).body;
    };
    /** Edits a space through a merged change request. */
    const edit = async (spaceId: string, changes: unknown[]) => {
      const cr = await a.changeRequest(spaceId);
      await a.batch(spaceId, cr.id, changes);
      h().clock.advance(1000);
      expect((await h().owner.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
      await h().platform.settle();
    };
    /** A space imported from a repository, then edited on the platform. */
    const synced = async (repo: { url: string }) => {
      const space = await a.space();
      expect((await post(space.id, 'import', { url: repo.url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' })).status).toBe(204);
      await h().platform.settle();
      return space;
    };
    const commits = (name: string) => git(server.clone(name), 'rev-list', '--count', 'HEAD').trim();

    it('commits edits on the platform on the branch\'s head, through the official client: pages, message, author, committer, code kept', { timeout: 60_000 }, async () => {
      const repo = repository();
      const space = await synced(repo);
      const setup = a.byTitle(await a.pages(space.id), 'Setup');
      await edit(space.id, [
        { operation: 'update_page', page: setup.id, document: md('Install it with `npm i`.') },
        { operation: 'insert_page', ref: 'guide', title: 'Guide', document: md('Read on.') },
        { operation: 'insert_page', title: 'Étape une', into: 'guide', document: md('First, see [setup](/pages/' + setup.id + ').') },
      ]);
      const client = new GitBookAPI({
        endpoint: 'http://docs.test',
        authToken: h().owner.token,
        serviceBinding: { fetch: (input, init) => h().send(new URL(String(input)).pathname, init) },
      }) as unknown as GitClient;
      const exported = (await h().owner.get(`/v1/spaces/${space.id}`)).body.revision;
      const answer = await client.spaces.exportToGitRepository(space.id, { url: repo.url, ref: 'refs/heads/main', commitMessage: 'Docs from the platform', repoProjectDirectory: 'docs' });
      expect(answer.status).toBe(204);
      await h().platform.settle();
      const { data } = await client.spaces.getSpaceGitInfo(space.id);
      expect(data.operation).toEqual({ state: 'success', direction: 'export', startedAt: expect.any(String), endedAt: expect.any(String) });
      const clone = server.clone(repo.name);
      const [parent, author, committer, ...message] = git(clone, 'log', '-1', '--format=%P%n%an <%ae>%n%cn <%ce>%n%B').trim().split('\n');
      expect(parent).toBe(git(clone, 'rev-parse', 'HEAD~1').trim());
      expect(author).toBe('Olive Owner <owner@acme.test>');
      expect(committer).toBe('docs-platform <git-sync@docs-platform.invalid>');
      expect(message.join('\n')).toBe(`Docs from the platform\n\nDocs-Platform-Revision: ${space.id}/${exported}`);
      for (const [path, text] of Object.entries(CODE).filter(([path]) => !/^docs\/(\.gitbook\.yaml|content\/(?!NOTES))/.test(path))) expect(readFileSync(join(clone, path), 'utf8')).toBe(text);
      expect(readFileSync(join(clone, 'docs/.gitbook.yaml'), 'utf8')).toMatch(/^root: \.\/content\/\n/);
      expect(readFileSync(join(clone, 'docs/content/setup.md'), 'utf8')).toBe('# Setup\n\nInstall it with `npm i`.\n');
      expect(readFileSync(join(clone, 'docs/content/guide/etape-une.md'), 'utf8')).toBe('# Étape une\n\nFirst, see [setup](../setup.md).\n');
      expect(readFileSync(join(clone, 'docs/content/SUMMARY.md'), 'utf8')).toContain('- [Guide](guide/README.md)\n  - [Étape une](guide/etape-une.md)');
      const content = (await h().owner.get(`/v1/spaces/${space.id}/content`)).body;
      expect(content.git).toEqual({ oid: git(clone, 'rev-parse', 'HEAD').trim(), message: `Docs from the platform\n\nDocs-Platform-Revision: ${space.id}/${exported}\n`, ref: 'refs/heads/main', createdByService: true });
    });

    it('makes no commit for a space unchanged since its last sync', { timeout: 60_000 }, async () => {
      const repo = repository();
      const space = await synced(repo);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      expect(commits(repo.name)).toBe('1');
      await edit(space.id, [{ operation: 'insert_page', title: 'New', document: md('New.') }]);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      expect(commits(repo.name)).toBe('2');
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      expect(commits(repo.name)).toBe('2');
    });

    it('refuses to write over commits the space has not imported, unless forced', { timeout: 60_000 }, async () => {
      const repo = repository();
      const space = await synced(repo);
      await edit(space.id, [{ operation: 'insert_page', title: 'Platform page', document: md('From the platform.') }]);
      server.commit(repo.name, { 'docs/content/setup.md': '# Setup\n\nChanged in Git.\n' }, 'Edit in Git');
      const refused = await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' });
      expect(refused.operation).toMatchObject({ state: 'failure', direction: 'export', error: expect.stringMatching(/^refs\/heads\/main has commits the space has not imported .*: import them first, or export with force/) });
      expect(git(server.clone(repo.name), 'log', '-1', '--format=%s').trim()).toBe('Edit in Git');
      const forced = await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs', force: true });
      expect(forced.operation.state).toBe('success');
      const clone = server.clone(repo.name);
      expect(git(clone, 'log', '-2', '--format=%s').trim().split('\n')).toEqual(['Update the docs', 'Edit in Git']);
      expect(readFileSync(join(clone, 'docs/content/setup.md'), 'utf8')).toBe('# Setup\n\nInstall it.\n');
      expect(existsSync(join(clone, 'docs/content/platform-page.md'))).toBe(true);
    });

    it('writes a repository imported in its own layout where its files are, and git.path says where each page and file is', { timeout: 60_000 }, async () => {
      const repo = repository({
        'SUMMARY.md': '# Contents\n\n* [Welcome](README.md)\n* [Getting started](guides/getting_started.md)\n  * [Install](guides/install-steps.md)\n',
        'README.md': '# Welcome\n\n![Logo](images/logo.png)\n',
        'guides/getting_started.md': '# Getting started\n\nRead on.\n',
        'guides/install-steps.md': '# Install\n\nRun it.\n',
        'images/logo.png': 'not really a PNG',
      });
      const space = await a.space();
      expect((await post(space.id, 'import', { url: repo.url, ref: 'refs/heads/main' })).status).toBe(204);
      await h().platform.settle();
      /** The git.path of every page (by title) and file (by name) of the space. */
      const gitPaths = async () => {
        const content = (await h().owner.get(`/v1/spaces/${space.id}/content`)).body;
        const pages = a.flatten(content.pages).map((page: any) => [page.title, page.git?.path]);
        return Object.fromEntries([...pages, ...content.files.map((file: any) => [file.name, file.git.path])]);
      };
      const layout = { Welcome: 'README.md', 'Getting started': 'guides/getting_started.md', Install: 'guides/install-steps.md', 'logo.png': 'images/logo.png' };
      expect(await gitPaths()).toEqual(layout);
      const install = a.byTitle(await a.pages(space.id), 'Install');
      expect((await h().owner.get(`${a.contentOf(space.id)}/page/${install.id}`)).body.git.path).toBe('guides/install-steps.md');
      await edit(space.id, [
        { operation: 'update_page', page: install.id, document: md('Run it twice.') },
        { operation: 'insert_page', title: 'Later', document: md('New on the platform.') },
      ]);
      expect((await gitExport(space.id, { url: repo.url })).operation.state).toBe('success');
      const clone = server.clone(repo.name);
      expect(git(clone, 'ls-files').trim().split('\n').sort()).toEqual(['.gitbook.yaml', 'README.md', 'SUMMARY.md', 'guides/getting_started.md', 'guides/install-steps.md', 'images/logo.png', 'later.md']);
      expect(readFileSync(join(clone, 'guides/install-steps.md'), 'utf8')).toBe('# Install\n\nRun it twice.\n');
      expect(readFileSync(join(clone, 'README.md'), 'utf8')).toBe('# Welcome\n\n![Logo](images/logo.png)\n');
      expect(await gitPaths()).toEqual({ ...layout, Later: 'later.md' });
      // The next import finds every page where the export left it: nothing new, nothing moved.
      server.commit(repo.name, { 'guides/getting_started.md': '# Getting started\n\nRead on, in Git.\n' }, 'Edit in Git');
      expect((await post(space.id, 'import', { url: repo.url, ref: 'refs/heads/main' })).status).toBe(204);
      await h().platform.settle();
      const pages = a.flatten(await a.pages(space.id));
      expect(pages.map((page: any) => page.title)).toEqual(['Welcome', 'Getting started', 'Install', 'Later']);
      expect(pages.find((page: any) => page.title === 'Install').id).toBe(install.id);
    });

    it('exports a space synced with one repository to another without refusing its commits, and syncs with that one from then on', { timeout: 60_000 }, async () => {
      const space = await synced(repository());
      const other = repository({ 'src/main.ts': 'code\n' });
      const done = await gitExport(space.id, { url: other.url, repoProjectDirectory: 'docs' });
      expect(done.operation, JSON.stringify(done.operation)).toMatchObject({ state: 'success', direction: 'export' });
      const clone = server.clone(other.name);
      expect(git(clone, 'log', '--format=%s').trim().split('\n')).toEqual(['Update the docs', 'First']);
      expect(readFileSync(join(clone, 'docs/setup.md'), 'utf8')).toBe('# Setup\n\nInstall it.\n');
      // From then on the space is in step with the other repository: a commit there is refused until imported.
      server.commit(other.name, { 'docs/setup.md': '# Setup\n\nChanged there.\n' }, 'Edit there');
      expect((await gitExport(space.id, { url: other.url, repoProjectDirectory: 'docs' })).operation.error).toMatch(/has commits the space has not imported/);
    });

    it('refuses to write over commits the space has not imported after a failed import of another repository', { timeout: 60_000 }, async () => {
      const repo = repository();
      const space = await synced(repo);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      // The failed import names another repository in the sync; the base still came from this one.
      expect((await post(space.id, 'import', { url: `${server.url}/missing.git`, ref: 'refs/heads/main' })).status).toBe(204);
      await h().platform.settle();
      expect((await h().owner.get(`/v1/spaces/${space.id}/git/info`)).body.operation.state).toBe('failure');
      server.commit(repo.name, { 'docs/content/setup.md': '# Setup\n\nChanged in Git.\n' }, 'Edit in Git');
      const refused = await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' });
      expect(refused.operation.error).toMatch(/^refs\/heads\/main has commits the space has not imported/);
      expect(git(server.clone(repo.name), 'log', '-1', '--format=%s').trim()).toBe('Edit in Git');
    });

    it('gives each exported page and file the git.oid and git.path of the commit pushed, and an import of that commit is a no-op', { timeout: 60_000 }, async () => {
      const repo = repository({ ...CODE, 'docs/content/.gitbook/assets/logo.png': 'not really a PNG' });
      const space = await synced(repo);
      const setup = a.byTitle(await a.pages(space.id), 'Setup');
      // A body changed, a page new, and a page whose text stays but whose front matter changes.
      await edit(space.id, [
        { operation: 'update_page', page: setup.id, document: md('Install it with `npm i`.') },
        { operation: 'insert_page', title: 'Later', document: md('New on the platform.') },
        { operation: 'insert_page', title: 'Empty', document: md('') },
        { operation: 'update_page', page: a.byTitle(await a.pages(space.id), 'Welcome').id, description: 'The first page' },
      ]);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      const clone = server.clone(repo.name);
      const blob = (path: string) => git(clone, 'rev-parse', `HEAD:docs/content/${path}`).trim();
      const content = (await h().owner.get(`/v1/spaces/${space.id}/content`)).body;
      const pages = a.flatten(content.pages);
      expect(pages.map((page: any) => page.title)).toEqual(['Welcome', 'Setup', 'Later', 'Empty']);
      for (const page of pages) expect(page.git, page.title).toEqual({ oid: blob(page.git.path), path: page.git.path });
      // A page without a body too: its file holds its title.
      expect(pages.map((page: any) => page.git.path)).toEqual(['README.md', 'setup.md', 'later.md', 'empty.md']);
      expect(content.files.map((file: any) => file.git)).toEqual([{ oid: blob('.gitbook/assets/logo.png'), path: '.gitbook/assets/logo.png' }]);
      expect(content.git).toMatchObject({ oid: git(clone, 'rev-parse', 'HEAD').trim(), createdByService: true });
      // The platform's own commit imports as nothing, and a second export finds nothing to commit.
      const revision = (await h().owner.get(`/v1/spaces/${space.id}`)).body.revision;
      expect((await post(space.id, 'import', { url: repo.url, ref: 'refs/heads/main', repoProjectDirectory: 'docs' })).status).toBe(204);
      await h().platform.settle();
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.revision).toBe(revision);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      expect(commits(repo.name)).toBe('2');
    });

    it('uses credentials for the connection only: never in an answer, a record or a commit', { timeout: 60_000 }, async () => {
      const repo = repository({ 'README.md': '# Private\n' }, secured);
      const space = await a.space();
      await edit(space.id, [{ operation: 'insert_page', title: 'Secret plans', document: md('Nothing here.') }]);
      const url = `${secured.authUrl}/${repo.name}.git`;
      expect((await h().owner.get(`/v1/spaces/${space.id}`)).body.gitSync).toBeUndefined();
      const done = await gitExport(space.id, { url });
      expect(done).toMatchObject({ url: `${secured.url}/${repo.name}.git`, operation: { state: 'success' } });
      const failed = await gitExport(space.id, { url: url.replace(PASSWORD, 'wrong') });
      expect(failed.operation).toMatchObject({ state: 'failure', error: expect.stringContaining('credentials') });
      const stored = await h().platform.store.read(async (tx) => [await tx.get(TABLES.gitSyncs, space.id), await tx.get(TABLES.spaces, space.id)]);
      const spaceAnswer = await h().owner.get(`/v1/spaces/${space.id}`);
      expect(spaceAnswer.body.gitSync).toEqual({
        installationId: space.id,
        installationProvider: 'gitlab',
        installationStatus: 'active',
        repoName: repo.name,
        url: `${secured.url}/${repo.name}.git`,
        updatedAt: failed.updatedAt,
      });
      for (const text of [JSON.stringify(done), JSON.stringify(failed), JSON.stringify(stored), spaceAnswer.text]) expect(text).not.toMatch(/hunter2|deploy:/);
    });

    it('exports every merge into a space an export synced, in order, with the sealed credentials of that request; not an imported-only one', { timeout: 60_000 }, async () => {
      const repo = repository(CODE, secured);
      const space = await a.space();
      expect((await gitExport(space.id, { url: `${secured.authUrl}/${repo.name}.git`, repoProjectDirectory: 'docs' })).operation.state).toBe('success');
      const imported = await synced(repository());
      const never = await a.space();
      for (const [target, title] of [[space.id, 'First'], [never.id, 'Elsewhere'], [imported.id, 'Imported'], [space.id, 'Second']] as const) {
        const cr = await a.changeRequest(target, { subject: `Add ${title}` });
        await a.batch(target, cr.id, [{ operation: 'insert_page', title, document: md(`${title} page.`) }]);
        h().clock.advance(1000);
        expect((await h().owner.post(`/v1/spaces/${target}/change-requests/${cr.id}/merge`)).status).toBe(200);
        // Each export writes the space as it is when it runs: settled here, each merge is its own commit.
        await h().platform.settle();
      }
      const clone = secured.clone(repo.name);
      expect(git(clone, 'log', '-4', '--format=%s|%an').trim().split('\n')).toEqual([
        'Merge change request #2: Add Second|Olive Owner',
        'Merge change request #1: Add First|Olive Owner',
        'Update the docs|Olive Owner',
        'First|Test Author',
      ]);
      expect(readFileSync(join(clone, 'docs/content/second.md'), 'utf8')).toBe('# Second\n\nSecond page.\n');
      expect((await h().owner.get(`/v1/spaces/${space.id}/git/info`)).body.operation).toMatchObject({ state: 'success', direction: 'export' });
      expect((await h().owner.get(`/v1/spaces/${never.id}/git/info`)).status).toBe(404);
      expect((await h().owner.get(`/v1/spaces/${imported.id}/git/info`)).body.operation.direction).toBe('import');
      const stored = await h().platform.store.read((tx) => tx.get(TABLES.gitSyncs, space.id));
      expect(JSON.stringify(stored)).not.toMatch(/hunter2|deploy/);
    });

    it('needs triggerGitSync (edit) and a valid body', { timeout: 60_000 }, async () => {
      const space = await a.space();
      const reader = await h().user('read');
      const body = { url: `${server.url}/x.git`, ref: 'refs/heads/main', commitMessage: 'x' };
      expect((await post(space.id, 'export', body, reader)).status).toBe(403);
      expect((await post(space.id, 'export', { ...body, ref: 'main' })).status).toBe(400);
      expect((await post(space.id, 'export', { ...body, commitMessage: undefined })).status).toBe(400);
      expect((await post(space.id, 'export', { ...body, repoProjectDirectory: '../up' })).status).toBe(400);
      expect((await h().owner.get(`/v1/spaces/${space.id}/git/info`)).status).toBe(404);
    });

    it('exports a space that imports into a new space with the same tree and bodies', { timeout: 60_000 }, async () => {
      const repo = repository({ 'README.md': '# Code\n' });
      const space = await a.space();
      await edit(space.id, [
        { operation: 'insert_page', ref: 'a', title: 'Überblick', document: md('Intro with **bold**.\n\n{% hint style="info" %}\nKept.\n{% endhint %}') },
        { operation: 'insert_page', ref: 'b', title: 'Deep', into: 'a', document: md('Deeper.') },
        { operation: 'insert_page', title: 'Deepest', into: 'b', document: md('Deepest.') },
        { operation: 'insert_page', title: 'Überblick', document: md('Same title.') },
      ]);
      expect((await gitExport(space.id, { url: repo.url, repoProjectDirectory: 'handbook' })).operation.state).toBe('success');
      expect(readFileSync(join(server.clone(repo.name), 'README.md'), 'utf8')).toBe('# Code\n');
      const copy = await a.space();
      expect((await post(copy.id, 'import', { url: repo.url, ref: 'refs/heads/main', repoProjectDirectory: 'handbook' })).status).toBe(204);
      await h().platform.settle();
      const [before, after] = [await a.pages(space.id), await a.pages(copy.id)];
      expect(a.outline(after)).toEqual(a.outline(before));
      for (const page of a.flatten(before)) {
        const twin = a.flatten(after).find((other) => other.path === page.path);
        const bodies = await Promise.all([space.id, copy.id].map(async (id, n) => (await h().owner.get(`${a.contentOf(id)}/page/${n === 0 ? page.id : twin.id}?format=markdown`)).body.markdown));
        expect(bodies[1]).toBe(bodies[0]);
      }
    });
  },
  { fetchAllow: ['127.0.0.1'] },
);

httpSuite('Git Sync export without an allow list', (h) => {
  const a = authoring(h);
  it('fails with the outbound filter\'s message', { timeout: 60_000 }, async () => {
    const space = await a.space();
    expect((await h().owner.post(`/v1/spaces/${space.id}/git/export`, { url: `${server.url}/docs.git`, ref: 'refs/heads/main', commitMessage: 'x' })).status).toBe(204);
    await h().platform.settle();
    expect((await h().owner.get(`/v1/spaces/${space.id}/git/info`)).body.operation.error).toBe(`${server.url}/docs.git could not be reached: 127.0.0.1 is a loopback address`);
  });
});
