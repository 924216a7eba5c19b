import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GitTransportError, remoteOf, scrubCredentials, type GitFetchLimits } from '../../src/core/git-sync/transport.js';
import { git, hasGit, useGitServer } from './git-server.js';
import { gitTransportOn, JOB_RUNNERS, workersFor } from './job-runners.js';

/** The Node Git transport (isomorphic-git over the outbound filter) against a real Git server on 127.0.0.1. */

const LIMITS: GitFetchLimits = { maxFiles: 100, maxFileBytes: 1024, maxTotalBytes: 4096, maxTransferBytes: 1024 * 1024 };

/** The rejection of a promise, as a GitTransportError's message. */
async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GitTransportError);
  return (error as Error).message;
}

// Without git the file is skipped, saying so in its title, except under CI, where .ci/run installs it.
// Each test runs several git processes, and the server one a request: a minute each, for a loaded machine.
describe.skipIf(!hasGit() && !process.env.CI).each(JOB_RUNNERS)(`the Git transport (jobs run %s)${hasGit() ? '' : ' (skipped: git and git http-backend are not installed)'}`, { timeout: 60_000 }, (runner) => {
  const workers = workersFor(runner);
  const transport = gitTransportOn(workers, '127.0.0.1');
  afterAll(() => workers.close());
  const server = useGitServer();
  const secured = useGitServer({ credentials: { user: 'ci-bot', password: 's3cr3t/p@ss' } });

  it('fetches the head of a branch shallow and reads the files below a folder, symlinks marked', async () => {
    server.createRepository('docs');
    server.commit('docs', { 'README.md': '# Root', 'docs/a.md': '# A', 'docs/sub/b.md': '# B', 'src/code.ts': 'x' }, 'First');
    const work = server.clone('docs');
    symlinkSync('a.md', join(work, 'docs/link.md'));
    git(work, 'add', 'docs/link.md');
    git(work, 'commit', '-q', '-m', 'Second\n\nWith a body');
    git(work, 'push', '-q', 'origin', 'main');
    const head = git(work, 'rev-parse', 'HEAD').trim();
    const fetched = await transport.fetchTree(remoteOf(`${server.url}/docs.git`), 'main', 'docs', LIMITS);
    expect(fetched.commit).toEqual({ oid: head, message: 'Second\n\nWith a body\n' });
    const files = fetched.files.map((file) => [file.path, new TextDecoder().decode(file.bytes), file.symlink ?? false]).sort();
    expect(files).toEqual([
      ['docs/a.md', '# A', false],
      ['docs/link.md', 'a.md', true],
      ['docs/sub/b.md', '# B', false],
    ]);
    expect((await transport.fetchTree(remoteOf(`${server.url}/docs.git`), 'main', '', LIMITS)).files).toHaveLength(5);
  });

  it('fails with a clear message for a missing branch or repository, and past each limit', async () => {
    server.createRepository('limits');
    server.commit('limits', { 'a.md': 'x'.repeat(600), 'b.md': 'y'.repeat(600), 'c.md': 'z'.repeat(2000) });
    const remote = remoteOf(`${server.url}/limits.git`);
    expect(await failure(transport.fetchTree(remote, 'nope', '', LIMITS))).toMatch(/limits\.git/);
    expect(await failure(transport.fetchTree(remoteOf(`${server.url}/absent.git`), 'main', '', LIMITS))).toMatch(/absent\.git/);
    expect(await failure(transport.fetchTree(remote, 'main', '', { ...LIMITS, maxFiles: 2 }))).toBe('the repository holds more than 2 files to read');
    expect(await failure(transport.fetchTree(remote, 'main', '', { ...LIMITS, maxFileBytes: 1000 }))).toBe('c.md holds 2000 bytes, more than 1000');
    expect(await failure(transport.fetchTree(remote, 'main', '', { ...LIMITS, maxFileBytes: 4096, maxTotalBytes: 3000 }))).toBe("the repository's files hold more than 3000 bytes");
    expect(await failure(transport.fetchTree(remote, 'main', '', { ...LIMITS, maxTransferBytes: 100 }))).toBe('the repository sends more than 100 bytes');
  });

  it('uses credentials from the URL for the connection only, and names them nowhere', async () => {
    secured.createRepository('private');
    secured.commit('private', { 'README.md': '# Private' });
    const url = `${secured.authUrl}/private.git`;
    const remote = remoteOf(url);
    expect(remote).toEqual({ url: `${secured.url}/private.git`, username: 'ci-bot', password: 's3cr3t/p@ss' });
    expect((await transport.fetchTree(remote, 'main', '', LIMITS)).files).toHaveLength(1);
    const refused = await failure(transport.fetchTree({ ...remote, password: 'wrong' }, 'main', '', LIMITS));
    expect(refused).toContain('credentials');
    const missing = await failure(transport.fetchTree(remote, 'absent-branch', '', LIMITS));
    for (const message of [refused, missing]) expect(message).not.toMatch(/s3cr3t|ci-bot|p%40ss/);
    expect(scrubCredentials(`at ${url} with s3cr3t/p@ss`, remote)).not.toMatch(/s3cr3t|ci-bot/);
  });

  it('reaches no address the outbound filter refuses', async () => {
    const strict = gitTransportOn(workers);
    expect(await failure(strict.fetchTree(remoteOf(`${server.url}/docs.git`), 'main', '', LIMITS))).toBe(`${server.url}/docs.git could not be reached: 127.0.0.1 is a loopback address`);
  });
});
