import { afterEach, expect, test } from 'vitest';
import { git, useGitServer } from '../git/git-server.js';
import { api, type Call } from './api.js';
import { databaseUrl, describePostgres, dropDatabases, freshDatabase, initialize } from './postgres-servers.js';
import { cleanUp, listening, startCli } from './spawn.js';

/**
 * Git Sync across server processes on one PostgreSQL database: an import queued through one process is
 * seen running, then ended, through the other, whose reads of the space's content show what it imported.
 */

const server = useGitServer({}, (started) => {
  started.createRepository('docs');
  started.commit('docs', { 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n', 'README.md': '# Welcome\n', 'setup.md': '# Setup\n\nInstall it.\n' });
});

afterEach(async () => {
  await cleanUp();
  await dropDatabases();
});

/** The state of a space's last Git operation, through one process. */
const stateOf = async (call: Call, spaceId: string) => (await call('GET', `/v1/spaces/${spaceId}/git/info`)).body.operation;

/** The state of a space's last Git operation once it is no longer running, through one process. */
async function ended(call: Call, spaceId: string) {
  let operation = await stateOf(call, spaceId);
  while (operation.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    operation = await stateOf(call, spaceId);
  }
  return operation;
}

/** Two server processes on a fresh database (outbound fetches to 127.0.0.1 allowed), a caller of each, and a space made through the first. */
async function twoServersAndASpace() {
  const url = databaseUrl(freshDatabase('git'));
  const owner = await initialize(url);
  const env = { DOCS_PLATFORM_FETCH_ALLOW: '127.0.0.1' };
  const servers = await Promise.all([0, 1].map(() => listening(startCli(['serve', '--data', url, '--port', '0'], { env }))));
  const [one, two] = servers.map((each) => api(each.url, owner.token)) as [Call, Call];
  const space = await one('POST', `/v1/orgs/${owner.organizationId}/spaces`, { title: 'Docs' });
  return { one, two, space };
}

describePostgres('Git Sync on two processes of one PostgreSQL database', () => {
  test('an import queued through one process is running, then ended, as the other reads it', { timeout: 90_000 }, async () => {
    const { one, two, space } = await twoServersAndASpace();
    expect(space.status).toBe(201);
    const release = server.hold();
    try {
      expect((await one('POST', `/v1/spaces/${space.body.id}/git/import`, { url: `${server.url}/docs.git`, ref: 'refs/heads/main' })).status).toBe(204);
      expect(await stateOf(two, space.body.id)).toEqual({ state: 'running', direction: 'import', startedAt: expect.any(String) });
    } finally {
      release();
    }
    // The work ends in the first process; the second sees it once it is recorded.
    expect(await ended(two, space.body.id)).toMatchObject({ state: 'success', direction: 'import', endedAt: expect.any(String) });
    const pages = (await two('GET', `/v1/spaces/${space.body.id}/content/pages`)).body.pages as { title: string }[];
    expect(pages.map((page) => page.title)).toEqual(['Welcome', 'Setup']);
  });

  test('exports through both processes at once take turns: one commit, no race lost, success seen from either', { timeout: 90_000 }, async () => {
    const { one, two, space } = await twoServersAndASpace();
    server.createRepository('exported');
    server.commit('exported', { 'src/main.ts': 'code\n' }, 'Code');
    const body = { url: `${server.url}/exported.git`, ref: 'refs/heads/main', commitMessage: 'Export' };
    const release = server.hold();
    try {
      for (const call of [one, two]) expect((await call('POST', `/v1/spaces/${space.body.id}/git/export`, body)).status).toBe(204);
    } finally {
      release();
    }
    expect(await ended(two, space.body.id)).toMatchObject({ state: 'success', direction: 'export' });
    expect(await ended(one, space.body.id)).toMatchObject({ state: 'success', direction: 'export' });
    const clone = server.clone('exported');
    expect(git(clone, 'log', '--format=%s').trim().split('\n')).toEqual(['Export', 'Code']);
  });

  test('a change request merged through the other process exports on its own: the commit on the branch, success seen from the first', { timeout: 90_000 }, async () => {
    const { one, two, space } = await twoServersAndASpace();
    const spaceId = space.body.id;
    server.createRepository('kept');
    server.commit('kept', { 'src/main.ts': 'code\n' }, 'Code');
    expect((await one('POST', `/v1/spaces/${spaceId}/git/export`, { url: `${server.url}/kept.git`, ref: 'refs/heads/main', commitMessage: 'First export' })).status).toBe(204);
    expect(await ended(one, spaceId)).toMatchObject({ state: 'success', direction: 'export' });
    const cr = await two('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Add the guide' });
    expect(cr.status).toBe(201);
    const changes = [{ operation: 'insert_page', title: 'Guide', document: { markdown: 'Read on.' } }];
    expect((await two('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes })).status).toBe(200);
    expect((await two('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    // The merge recorded its export as running in its own transaction, and runs it in the second process's background.
    expect(await ended(one, spaceId)).toMatchObject({ state: 'success', direction: 'export' });
    const clone = server.clone('kept');
    expect(git(clone, 'log', '--format=%s', '-3').trim().split('\n')).toEqual([`Merge change request #${cr.body.number}: Add the guide`, 'First export', 'Code']);
    const [merger, exporter] = git(clone, 'log', '--format=%an <%ae>', '-2').trim().split('\n');
    expect(merger).toBe(exporter);
    expect(git(clone, 'show', 'HEAD:guide.md')).toBe('# Guide\n\nRead on.\n');
  });
});
