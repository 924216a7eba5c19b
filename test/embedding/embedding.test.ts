import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as its users get it: `npm pack` (prepack builds dist/), installed into a plain JavaScript
 * app in a temporary folder, run with node, and type-checked from a TypeScript file that imports it.
 * Nothing here reads src/: only what the tarball ships.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const APP_SCRIPT = join(ROOT, 'test/embedding/app.mjs');
const TSC = join(ROOT, 'node_modules/.bin/tsc');
const SLOW = 180_000;

/** The environment without the npm_* variables of an enclosing `npm test`, which would leak into the nested npm. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion; never rejects, so a failure's output ends up in the assertion message. */
function run(command: string, args: string[], cwd: string, timeout = SLOW): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, env: cleanEnv, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      done({ code, stdout, stderr: error && code === 1 && !stderr ? String(error) : stderr });
    });
  });
}

function describeRun(what: string, result: Run): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** A consumer's tsconfig: NodeNext, strict, and by default the package's declarations checked too. */
function consumerTsconfig(files: string[], skipLibCheck = false): string {
  return JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023'],
      strict: true,
      noEmit: true,
      skipLibCheck,
      // The app installs no @types/node of its own; borrow the project's instead of installing one.
      types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
    },
    files,
  });
}

/** Resolution and types of the entry points; the @ts-expect-error lines fail if anything were `any`. */
const CHECK_TS = `
import { createJsonFileStore, createMemoryStore, createPlatform, ApiError, type Platform, type Store } from 'docs-platform';
import { createFetchHandler } from 'docs-platform/fetch';
import { serve, type RunningServer } from 'docs-platform/node-http';
import { createWorkerPool } from 'docs-platform/workers';
import { createMcpHandler } from 'docs-platform/mcp';

const platform: Platform = createPlatform({ store: createMemoryStore(), workers: createWorkerPool({ threads: 1 }) });
const store: Promise<Store> = createJsonFileStore({ path: 'data.json' });
const handle: (request: Request) => Promise<Response> = createFetchHandler(platform);
const mcp: (request: Request) => Promise<Response> = createMcpHandler(platform);
const running: Promise<RunningServer> = serve({ platform, port: 0 });
const status: number = new ApiError(404, 'gone').status;
// @ts-expect-error a platform needs a store
createPlatform({});
// @ts-expect-error listMembers needs an organizationId
platform.as('user').listMembers({ order: 'asc', sort: 'joinedAt' });
export { store, handle, mcp, running, status };
`;

/** The call README.md shows, with the defaulted query fields left out. */
const README_CALL_TS = `
import { createMemoryStore, createPlatform } from 'docs-platform';

const platform = createPlatform({ store: createMemoryStore() });
export const members = platform.as('user').listMembers({ organizationId: 'org', role: 'admin' });
`;

describe('the packed package, embedded in a plain JavaScript app', () => {
  let work: string;
  let app: string;
  let entries: string[];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'docs-platform-embedding-'));
    const packs = join(work, 'packs');
    app = join(work, 'app');
    await mkdir(packs);
    await mkdir(app);

    const pack = await run('npm', ['pack', '--pack-destination', packs], ROOT);
    if (pack.code !== 0) throw new Error(describeRun('npm pack', pack));
    const tarballs = (await readdir(packs)).filter((name) => name.endsWith('.tgz'));
    if (tarballs.length !== 1) throw new Error(`expected one tarball in ${packs}, found ${tarballs.join(', ') || 'none'}`);
    const tarball = join(packs, tarballs[0]);

    const list = await run('tar', ['-tzf', tarball], work);
    if (list.code !== 0) throw new Error(describeRun('tar -tzf', list));
    entries = list.stdout.split('\n').filter(Boolean);

    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'embedding-app', private: true, type: 'module' }));
    const install = await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], app);
    if (install.code !== 0) throw new Error(describeRun('npm install', install));
    await copyFile(APP_SCRIPT, join(app, 'app.mjs'));
    await writeFile(join(app, 'check.ts'), CHECK_TS);
    await writeFile(join(app, 'readme-call.ts'), README_CALL_TS);
    await writeFile(join(app, 'tsconfig.json'), consumerTsconfig(['check.ts']));
    await writeFile(join(app, 'tsconfig.readme-call.json'), consumerTsconfig(['readme-call.ts'], true));
  }, SLOW);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ships the compiled JavaScript and declarations, without sources or tests', () => {
    expect(entries).toContain('package/package.json');
    for (const file of ['index', 'fetch', 'node-http', 'workers', 'mcp', 'cli', 'server']) {
      expect(entries).toContain(`package/dist/${file}.js`);
      expect(entries).toContain(`package/dist/${file}.d.ts`);
    }
    const unwanted = entries.filter((entry) => /^package\/(src|test|bench)\//.test(entry) || /\.(test|spec)\.[cm]?[jt]s$/.test(entry));
    expect(unwanted).toEqual([]);
    expect(entries.filter((entry) => entry.endsWith('.ts') && !entry.endsWith('.d.ts'))).toEqual([]);
  });

  it('runs with node: operations directly, through the Fetch handler and over node:http', async () => {
    const result = await run(process.execPath, ['app.mjs'], app, 60_000);
    expect(result.code, describeRun('node app.mjs', result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const output = JSON.parse(lines[lines.length - 1]);
    expect(output.memory).toEqual({ members: 1 });
    expect(output.direct).toEqual({ count: 1, ownerRole: 'admin' });
    expect(output.fetch).toEqual({ status: 200, contentType: expect.stringMatching(/^application\/json/), ownerRole: 'admin' });
    expect(output.nodeHttp).toEqual({
      status: 200,
      contentType: expect.stringMatching(/^application\/json/),
      organizationIds: [output.organizationId],
    });
    expect(output.persisted).toEqual({ format: 'docs-platform', members: 1 });
    expect(output.workers).toEqual({ processingState: 'complete', hasVersion: true, error: null });
    expect(output.mcp).toEqual({ status: 200, tools: 15 });
    expect(output.reference).toEqual({ openapi: 200, version: '3.1.0', page: 200, bundle: 200, bundleType: 'text/javascript; charset=utf-8' });
  }, 60_000);

  it('type-checks from TypeScript with NodeNext resolution (skipLibCheck false)', async () => {
    const result = await run(TSC, ['-p', 'tsconfig.json'], app, 60_000);
    expect(result.code, describeRun('tsc -p tsconfig.json', result)).toBe(0);
  }, 60_000);

  // Callers may leave out fields that have defaults (order, sort): Api takes the schemas' input types.
  it('accepts the README call that leaves defaulted fields out', async () => {
    const result = await run(TSC, ['-p', 'tsconfig.readme-call.json'], app, 60_000);
    expect(result.code, describeRun('tsc -p tsconfig.readme-call.json', result)).toBe(0);
  }, 60_000);
});
