import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { api } from './api.js';
import { cleanUp, FIRST_START_TOKEN, listening, runCli, startCli, tempDir, type Server } from './spawn.js';

/**
 * The modes of what the server and the CLI write beside a JSON data file: 0600 for files, 0700 for the folders
 * they create, under a umask of 000 that would leave them readable and writable by anyone; and a start over a
 * data file left readable by others takes that away and says so once.
 */

vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });
afterEach(cleanUp);

/** Processes start with a umask that removes nothing, so only the modes the code asks for keep others out. */
const OPEN_UMASK = 0o000;

const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;

/** The line a start logs when it tightens a file's permissions. */
const tightenedLine = (path: string) => `tightened permissions of ${path} from 0644 to 0600`;

/** How many times `text` holds `part`. */
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * Stops a server gracefully and waits for it to exit (it compacts the journal into the data file). It answers a
 * request first: a signal sent the moment the listening line is read can come before its handler is installed.
 */
async function stop({ child, url }: Server): Promise<void> {
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  child.signal('SIGTERM');
  const exit = await child.exited;
  expect(exit, `${child.stdout}\n${child.stderr}`).toEqual({ code: 0, signal: null });
}

describe.skipIf(process.platform === 'win32')('file modes of a JSON data file', () => {
  test('under umask 000, the data file, its journal, lock, blobs, backups and the folders made for them are private', async () => {
    const folder = tempDir();
    const data = join(folder, 'new', 'data.json');
    const server = await listening(startCli(['serve', '--data', data, '--port', '0'], { umask: OPEN_UMASK }));
    const { child, url } = server;
    const [, token] = await child.waitFor(FIRST_START_TOKEN);
    const [, organizationId] = await child.waitFor(/created organization (\S+)/);
    expect(modeOf(join(folder, 'new'))).toBe('0700');
    expect(modeOf(`${data}.lock`)).toBe('0600');
    const segments = readdirSync(join(folder, 'new')).filter((name) => name.startsWith('data.json.journal.'));
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) expect(modeOf(join(folder, 'new', segment)), segment).toBe('0600');

    // A file uploaded through the API: its blob, and the folders it lives in.
    const call = api(url, token!);
    const space = await call('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Handbook' });
    expect(space.status).toBe(201);
    const request = await call('POST', `/v1/spaces/${space.body.id}/change-requests`, {});
    const upload = await call('POST', `/v1/spaces/${space.body.id}/change-requests/${request.body.id}/content`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: btoa('private notes') }] }],
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const key = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('private notes'))).toString('hex');
    expect(modeOf(`${data}.blobs`)).toBe('0700');
    expect(modeOf(join(`${data}.blobs`, key.slice(0, 2)))).toBe('0700');
    expect(modeOf(join(`${data}.blobs`, key.slice(0, 2), key))).toBe('0600');

    // A backup, taken while the server runs, into a folder it makes.
    const copy = join(folder, 'backups', 'copy.json');
    const backup = await runCli(['backup', '--data', data, '--out', copy], { umask: OPEN_UMASK });
    expect(backup.code, backup.stderr).toBe(0);
    expect(modeOf(join(folder, 'backups'))).toBe('0700');
    expect(modeOf(copy)).toBe('0600');
    expect(modeOf(`${copy}.blobs`)).toBe('0700');
    expect(modeOf(join(`${copy}.blobs`, key.slice(0, 2), key))).toBe('0600');

    await stop(server);
    expect(modeOf(data)).toBe('0600');
    expect(readdirSync(join(folder, 'new')).sort()).toEqual(['data.json', 'data.json.blobs']);
    expect(child.stderr).not.toContain('tightened');
  });

  test('a start over a data file readable by others tightens it to 0600 and says so once', async () => {
    const data = join(tempDir(), 'data.json');
    const init = await runCli(['init', '--data', data, '--json']);
    expect(init.code, init.stderr).toBe(0);
    chmodSync(data, 0o644);
    const server = await listening(startCli(['serve', '--data', data, '--port', '0'], { umask: OPEN_UMASK }));
    const { child } = server;
    expect(modeOf(data)).toBe('0600');
    expect(occurrences(child.stderr, tightenedLine(data))).toBe(1);
    expect(occurrences(child.stderr, 'tightened permissions')).toBe(1);
    await stop(server);
    expect(occurrences(child.stderr, 'tightened permissions')).toBe(1);
    // Tight already: the next start has nothing to say.
    const again = await listening(startCli(['serve', '--data', data, '--port', '0'], { umask: OPEN_UMASK }));
    await stop(again);
    expect(again.child.stderr).not.toContain('tightened');
  });
});
