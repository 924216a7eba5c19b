import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A real Git server for tests: Debian's `git http-backend` (smart HTTP) behind a small node:http CGI bridge on
 * 127.0.0.1, serving the bare repositories of a temporary folder, optionally behind basic auth. Tests make
 * repositories and commits with the `git` command line (`git`, `commit`), as a user would.
 */

/** Where Debian's git keeps the smart HTTP backend. */
const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** The environment of every `git` the tests run: no user configuration, a fixed identity. */
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@acme.test',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@acme.test',
};

/** Runs `git` with arguments in a folder, and answers its standard output. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether a repository has a ref. */
function hasRef(folder: string, ref: string): boolean {
  try {
    git(folder, 'show-ref', '-q', '--verify', ref);
    return true;
  } catch {
    return false;
  }
}

/** A Git server and the folder of its repositories. */
export interface GitServer {
  /** The base URL (`http://127.0.0.1:<port>`); a repository `name` is at `${url}/name.git`. */
  readonly url: string;
  /** The same URL with the server's credentials in it, when it asks for some. */
  readonly authUrl: string;
  /** Makes an empty bare repository `name.git` whose default branch is `main`; answers its folder. */
  createRepository(name: string): string;
  /** Commits files (path → text; null deletes) on `branch` of a repository through a clone, and pushes; answers the commit id. */
  commit(name: string, files: Record<string, string | null>, message?: string, branch?: string): string;
  /**
   * Commits many files at once on `branch` of a repository, on top of its head (`git fast-import`: thousands
   * of files in a fraction of a second, where `commit` runs a clone and an add); answers the commit id.
   */
  bulkCommit(name: string, files: Iterable<readonly [string, string]>, message?: string, branch?: string): string;
  /** A fresh clone of a repository (for inspection), in a temporary folder. */
  clone(name: string): string;
  /**
   * Holds every request until the function it answers is called: a test sees an operation while it runs
   * (waiting on the server, never on time).
   */
  hold(): () => void;
  close(): Promise<void>;
}

/** Options of a test Git server. */
export interface GitServerOptions {
  /** Basic-auth credentials every request must carry. */
  readonly credentials?: { readonly user: string; readonly password: string };
}

/** Whether this machine has git and its HTTP backend. */
export function hasGit(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    execFileSync('test', ['-x', HTTP_BACKEND]);
    return true;
  } catch {
    return false;
  }
}

/** Starts a Git server on 127.0.0.1 over a new temporary folder. */
export async function startGitServer(options: GitServerOptions = {}): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'git-server-'));
  const expected = options.credentials && `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}`;
  let held: Promise<void> | undefined;
  const server: Server = createServer(async (request, response) => {
    await held;
    if (expected !== undefined && request.headers.authorization !== expected) {
      response.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://x');
    const child = spawn(HTTP_BACKEND, [], {
      env: {
        ...GIT_ENV,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        CONTENT_LENGTH: request.headers['content-length'] ?? '',
        HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
        REMOTE_USER: options.credentials?.user ?? 'anonymous',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    request.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headDone) return void response.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      headDone = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else response.setHeader(name, value);
      }
      response.statusCode = status;
      response.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => response.end());
    child.on('error', () => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authUrl = options.credentials ? url.replace('http://', `http://${encodeURIComponent(options.credentials.user)}:${encodeURIComponent(options.credentials.password)}@`) : url;
  const temporary: string[] = [root];
  const clone = (name: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'git-clone-'));
    temporary.push(folder);
    git(folder, 'clone', '-q', join(root, `${name}.git`), '.');
    return folder;
  };
  return {
    url,
    authUrl,
    createRepository(name) {
      const folder = join(root, `${name}.git`);
      mkdirSync(folder, { recursive: true });
      git(folder, 'init', '-q', '--bare', '--initial-branch=main');
      git(folder, 'config', 'http.receivepack', 'true');
      return folder;
    },
    commit(name, files, message = 'Edit the docs', branch = 'main') {
      const work = clone(name);
      const branches = git(work, 'branch', '-r');
      if (branches.includes(`origin/${branch}`)) git(work, 'checkout', '-q', branch);
      else git(work, 'checkout', '-q', '--orphan', branch);
      for (const [path, text] of Object.entries(files)) {
        if (text === null) {
          git(work, 'rm', '-q', path);
          continue;
        }
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), text);
        git(work, 'add', path);
      }
      git(work, 'commit', '-q', '--allow-empty', '-m', message);
      git(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD').trim();
    },
    bulkCommit(name, files, message = 'Many files', branch = 'main') {
      const folder = join(root, `${name}.git`);
      const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
      const parts = [`commit refs/heads/${branch}\ncommitter Test Author <author@acme.test> 1767225600 +0000\n${data(message)}`];
      // On top of the branch's head, when it has one (fast-import starts a new branch otherwise).
      const head = hasRef(folder, `refs/heads/${branch}`) ? git(folder, 'rev-parse', `refs/heads/${branch}`).trim() : undefined;
      if (head !== undefined) parts.push(`from ${head}\n`);
      for (const [path, text] of files) parts.push(`M 100644 inline ${path}\n${data(text)}`);
      execFileSync('git', ['fast-import', '--quiet'], { cwd: folder, env: GIT_ENV, input: parts.join('') });
      return git(folder, 'rev-parse', `refs/heads/${branch}`).trim();
    },
    clone,
    hold() {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const folder of temporary) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A Git server for the tests of a file or a `describe` block: started before them (then `setup`, to make the
 * repositories they share), closed after them. What it answers stands for that server, to be used in tests
 * and hooks only (before the start it throws).
 */
export function useGitServer(options: GitServerOptions = {}, setup?: (server: GitServer) => void): GitServer {
  let running: GitServer | undefined;
  beforeAll(async () => {
    running = await startGitServer(options);
    setup?.(running);
  }, 60_000);
  afterAll(() => running?.close());
  const current = (): GitServer => {
    if (!running) throw new Error('useGitServer: the server starts before the tests; use it in a test or a hook');
    return running;
  };
  return {
    get url() {
      return current().url;
    },
    get authUrl() {
      return current().authUrl;
    },
    createRepository: (name) => current().createRepository(name),
    commit: (...args) => current().commit(...args),
    bulkCommit: (...args) => current().bulkCommit(...args),
    clone: (name) => current().clone(name),
    hold: () => current().hold(),
    close: () => current().close(),
  };
}
