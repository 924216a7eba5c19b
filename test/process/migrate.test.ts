import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { readJsonData } from '../../src/store/backup.js';
import { createFolderBlobStore, folderBlobKeys } from '../../src/store/blob-folder.js';
import { createJsonFileStore } from '../../src/store/json-file.js';
import {
  databaseUrlOf,
  dropDatabase,
  dropSchemas,
  freshDatabaseName,
  freshSchema,
  postgresAvailable,
  skipReason,
  TEST_DATABASE_URL,
  withTestClient,
} from '../postgres/database.js';
import { api } from './api.js';
import { cleanUp, runCli, serve, tempDir } from './spawn.js';

vi.setConfig({ testTimeout: 90_000, hookTimeout: 30_000 });
afterEach(cleanUp);
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));
const databases: string[] = [];
const roles: string[] = [];
afterEach(async () => {
  for (const name of databases.splice(0)) await dropDatabase(name);
  for (const role of roles.splice(0)) await withTestClient((client) => client.query(`DROP ROLE IF EXISTS "${role}"`));
});

/** A JSON installation with records of several tables and two file blobs; returns its owner's token and ids. */
async function seedJsonInstallation(data: string) {
  const blobs = await createFolderBlobStore(`${data}.blobs`);
  const platform = createPlatform({ store: await createJsonFileStore({ path: data, log: () => undefined }), blobs });
  const created = await platform.initialize({ title: 'Acme', email: 'ada@acme.test', name: 'Ada' });
  const api = platform.as(created.userId);
  const team = await api.createTeam({ organizationId: created.organizationId, title: 'Writers ✓' });
  const space = await api.createSpace({ organizationId: created.organizationId, title: 'Handbook' });
  await platform.addUser({ organizationId: created.organizationId, email: 'bo@acme.test', name: 'Bo', role: 'edit' });
  for (const text of ['first file', 'second file']) await blobs.put(new TextEncoder().encode(text));
  await platform.close();
  return { ...created, teamId: team.id, spaceId: space.id };
}

/** Every record of a JSON data file, by table and id, and its blob keys. */
async function contentsOf(data: string) {
  const { tables } = await readJsonData(data);
  // Serving notes when a token was last used (at most once a minute): the one change a read makes.
  const kept = (table: string, row: { id: string; lastUsedAt?: unknown }) => (table === 'tokens' ? { ...row, lastUsedAt: undefined } : row);
  const records = Object.fromEntries(
    tables.filter(([, rows]) => rows.length > 0).map(([table, rows]) => [table, Object.fromEntries(rows.map((row) => [row.id, kept(table, row)]))]),
  );
  const blobs: string[] = [];
  for await (const key of folderBlobKeys(`${data}.blobs`)) blobs.push(key);
  return { records, blobs };
}

describe.skipIf(!postgresAvailable)(`migrate between a JSON data file and PostgreSQL${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  test('copies every record and blob there and back, refuses a target with data, and the copy serves the same data', async () => {
    const folder = tempDir();
    const source = join(folder, 'source.json');
    const seeded = await seedJsonInstallation(source);
    const schema = freshSchema('migrate');
    schemas.push(schema);
    const database = `${TEST_DATABASE_URL}?schema=${schema}`;

    const there = await runCli(['migrate', '--from', source, '--to', database, '--json']);
    expect(there.code, there.stderr).toBe(0);
    const report = JSON.parse(there.stdout);
    expect(report).toMatchObject({ blobs: 2, complete: true });
    const counted = Object.fromEntries(report.tables.map((row: { table: string; source: number; target: number }) => [row.table, [row.source, row.target]]));
    expect(counted).toMatchObject({ organizations: [1, 1], users: [2, 2], members: [2, 2], teams: [1, 1], spaces: [1, 1] });

    const again = await runCli(['migrate', '--from', source, '--to', database]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/holds data already: migrate copies into an empty store only/);

    // The database serves what the file held, to the same token.
    const server = await serve(database);
    const call = api(server.url, seeded.token);
    expect((await call('GET', `/v1/orgs/${seeded.organizationId}/teams/${seeded.teamId}`)).body).toMatchObject({ title: 'Writers ✓' });
    expect((await call('GET', `/v1/spaces/${seeded.spaceId}`)).body).toMatchObject({ title: 'Handbook' });

    const back = join(folder, 'back.json');
    const returned = await runCli(['migrate', '--from', database, '--to', back]);
    expect(returned.code, returned.stderr).toBe(0);
    expect(returned.stdout).toMatch(/^table\s+source\s+target$/m);
    expect(returned.stdout).toMatch(/^teams\s+1\s+1$/m);
    expect(await contentsOf(back)).toEqual(await contentsOf(source));

    // A backup of the database, taken while the server runs, is a JSON data file of the same contents.
    const backup = join(folder, 'backup.json');
    const backedUp = await runCli(['backup', '--data', database, '--out', backup]);
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(await contentsOf(backup)).toEqual(await contentsOf(source));
  });

  test('refuses two JSON files, and a JSON target that has data', async () => {
    const folder = tempDir();
    const source = join(folder, 'a.json');
    await seedJsonInstallation(source);
    const files = await runCli(['migrate', '--from', source, '--to', join(folder, 'b.json')]);
    expect(files).toMatchObject({ code: 2, stderr: expect.stringMatching(/one of --from and --to must be a PostgreSQL URL/) });
    const schema = freshSchema('migrate');
    schemas.push(schema);
    const database = `${TEST_DATABASE_URL}?schema=${schema}`;
    expect((await runCli(['migrate', '--from', source, '--to', database])).code).toBe(0);
    const occupied = await runCli(['migrate', '--from', database, '--to', source]);
    expect(occupied).toMatchObject({ code: 1, stderr: expect.stringMatching(/a\.json holds data already/) });
  });
});

/** Whether a database of that name exists on the test server. */
const databaseExists = (name: string) => withTestClient(async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);

/** Expects a command that failed at start: exit 1, nothing on stdout, and one line on stderr, with no stack. */
function expectOneLine(result: { code: number | null; stdout: string; stderr: string }, line: RegExp | string) {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim().split('\n')).toEqual([typeof line === 'string' ? line : expect.stringMatching(line)]);
}

describe.skipIf(!postgresAvailable)(`migrate into a PostgreSQL database that does not exist${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  test('creates it when the URL\'s user may, then copies into it', async () => {
    const source = join(tempDir(), 'source.json');
    await seedJsonInstallation(source);
    const name = freshDatabaseName('migrate');
    databases.push(name);
    const copied = await runCli(['migrate', '--from', source, '--to', databaseUrlOf(name), '--json']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(JSON.parse(copied.stdout)).toMatchObject({ complete: true });
    expect(copied.stderr).toContain(`docs-platform store: created the PostgreSQL database "${name}"`);
    expect(await databaseExists(name)).toBe(true);
  });

  test('stops with one line saying how to create it when the user may not (no CREATEDB), and creates nothing', async () => {
    const source = join(tempDir(), 'source.json');
    await seedJsonInstallation(source);
    const role = freshDatabaseName('nocreatedb');
    roles.push(role);
    await withTestClient((client) => client.query(`CREATE ROLE "${role}" LOGIN NOCREATEDB`));
    const name = freshDatabaseName('migrate');
    databases.push(name);
    const { hostname, port } = new URL(TEST_DATABASE_URL);
    const result = await runCli(['migrate', '--from', source, '--to', databaseUrlOf(name, role)]);
    expectOneLine(
      result,
      `error: The PostgreSQL database "${name}" does not exist and user "${role}" may not create it: create it as a user who may (createdb -h ${hostname} -p ${port || 5432} -O ${role} ${name})`,
    );
    expect(await databaseExists(name)).toBe(false);
  });

  test('a connection that fails at start is one line each: refused, an unknown role, an unknown host', async () => {
    const source = join(tempDir(), 'source.json');
    await seedJsonInstallation(source);
    const refused = new URL(TEST_DATABASE_URL);
    refused.port = '1';
    expectOneLine(await runCli(['migrate', '--from', source, '--to', refused.toString()]), /^error: Cannot reach the PostgreSQL database: .*ECONNREFUSED/);
    const stranger = new URL(TEST_DATABASE_URL);
    stranger.username = freshDatabaseName('nobody');
    expectOneLine(await runCli(['migrate', '--from', source, '--to', stranger.toString()]), `error: Cannot reach the PostgreSQL database: role "${stranger.username}" does not exist`);
    const unknown = new URL(TEST_DATABASE_URL);
    unknown.hostname = 'no-such-host.invalid';
    expectOneLine(await runCli(['migrate', '--from', source, '--to', unknown.toString()]), /^error: Cannot reach the PostgreSQL database: getaddrinfo ENOTFOUND no-such-host\.invalid$/);
  });
});
