import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitTransportError, remoteOf, type GitFetchLimits, type GitTreeEdit } from '../../src/core/git-sync/transport.js';
import { git, hasGit, useGitServer } from './git-server.js';
import { gitTransportOn, JOB_RUNNERS, workersFor } from './job-runners.js';

/** The Node Git transport's commits (commitTree) against a real Git server on 127.0.0.1, checked with the `git` command line. */

const LIMITS: GitFetchLimits = { maxFiles: 100, maxFileBytes: 1024, maxTotalBytes: 4096, maxTransferBytes: 1024 * 1024 };
const bytes = (text: string) => new TextEncoder().encode(text);

/** An edit writing and removing files, by a fixed author and committer. */
const edit = (write: Record<string, string>, remove: string[] = [], message = 'Export'): GitTreeEdit => ({
  write: new Map(Object.entries(write).map(([path, text]) => [path, bytes(text)])),
  remove: new Set(remove),
  message,
  author: { name: 'Ada Author', email: 'ada@acme.test' },
  committer: { name: 'docs-platform', email: 'git-sync@docs-platform.invalid' },
  time: Date.parse('2026-11-28T10:00:00Z'),
});

describe.skipIf(!hasGit() && !process.env.CI).each(JOB_RUNNERS)(`the Git transport's commits (jobs run %s)${hasGit() ? '' : ' (skipped: git and git http-backend are not installed)'}`, { timeout: 60_000 }, (runner) => {
  const workers = workersFor(runner);
  const transport = gitTransportOn(workers, '127.0.0.1');
  afterAll(() => workers.close());
  const server = useGitServer();

  it('commits an edit on the head of a branch, keeping every other file, with its author, committer and message', async () => {
    server.createRepository('code');
    const head = server.commit('code', { 'src/main.ts': 'code', '.github/workflows/ci.yml': 'ci', 'docs/old.md': '# Old', 'docs/keep.md': '# Keep' });
    let seen: string | undefined;
    const outcome = await transport.commitTree(remoteOf(`${server.url}/code.git`), 'main', 'docs', LIMITS, async (found) => {
      seen = found?.files.map((file) => file.path).sort().join(',');
      expect(found?.commit.oid).toBe(head);
      return edit({ 'docs/new.md': '# New', 'docs/deep/er/page.md': '# Deep' }, ['docs/old.md'], 'Export the docs\n\nFrom the platform');
    });
    expect(seen).toBe('docs/keep.md,docs/old.md');
    expect('pushed' in outcome && outcome.pushed.oid).toMatch(/^[0-9a-f]{40}$/);
    const clone = server.clone('code');
    expect(git(clone, 'ls-files').trim().split('\n').sort()).toEqual(['.github/workflows/ci.yml', 'docs/deep/er/page.md', 'docs/keep.md', 'docs/new.md', 'src/main.ts']);
    expect(git(clone, 'log', '-1', '--format=%P|%an <%ae>|%cn <%ce>|%B').trim()).toBe(`${head}|Ada Author <ada@acme.test>|docs-platform <git-sync@docs-platform.invalid>|Export the docs\n\nFrom the platform`);
    expect(readFileSync(join(clone, 'docs/new.md'), 'utf8')).toBe('# New');
    expect(existsSync(join(clone, 'docs/old.md'))).toBe(false);
    // The blob id of every file written, as the commit has it.
    expect(outcome.blobs).toEqual(new Map(['docs/new.md', 'docs/deep/er/page.md'].map((path) => [path, git(clone, 'rev-parse', `HEAD:${path}`).trim()])));
  });

  it('leaves no scratch repository behind: after a commit, after an edit that refuses, after a failed fetch', async () => {
    server.createRepository('scratch');
    server.commit('scratch', { 'a.md': '# A' });
    const remote = remoteOf(`${server.url}/scratch.git`);
    const folder = mkdtempSync(join(tmpdir(), 'scratch-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = folder;
    try {
      expect('pushed' in (await transport.commitTree(remote, 'main', '', LIMITS, async () => edit({ 'b.md': '# B' })))).toBe(true);
      await expect(transport.commitTree(remote, 'main', '', LIMITS, async () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
      await expect(transport.fetchTree(remote, 'absent', '', LIMITS)).rejects.toBeInstanceOf(GitTransportError);
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('makes no commit when the edit changes nothing, and creates a branch that does not exist', async () => {
    server.createRepository('same');
    const head = server.commit('same', { 'a.md': '# A' });
    const unchanged = await transport.commitTree(remoteOf(`${server.url}/same.git`), 'main', '', LIMITS, async () => edit({ 'a.md': '# A' }));
    expect(unchanged).toEqual({ unchanged: { oid: head, message: 'Edit the docs\n' }, blobs: new Map([['a.md', git(server.clone('same'), 'rev-parse', 'HEAD:a.md').trim()]]) });
    const created = await transport.commitTree(remoteOf(`${server.url}/same.git`), 'docs', '', LIMITS, async (found) => {
      expect(found).toBeUndefined();
      return edit({ 'b.md': '# B' });
    });
    expect('pushed' in created).toBe(true);
    expect(git(server.clone('same'), 'ls-tree', '-r', '--name-only', 'origin/docs').trim()).toBe('b.md');
  });

  it('refuses to push over a branch that moved while the edit was made', async () => {
    server.createRepository('race');
    server.commit('race', { 'a.md': '# A' });
    const failure = await transport
      .commitTree(remoteOf(`${server.url}/race.git`), 'main', '', LIMITS, async () => {
        server.commit('race', { 'b.md': '# B' }, 'Pushed meanwhile');
        return edit({ 'c.md': '# C' });
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitTransportError);
    expect((failure as Error).message).toContain('race.git');
    expect(git(server.clone('race'), 'log', '-1', '--format=%s').trim()).toBe('Pushed meanwhile');
  });
});
