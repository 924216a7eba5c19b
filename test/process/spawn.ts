/**
 * Real child processes for the process tests: the CLI, the server (`serve`, `npm start`), and waiting on
 * what they print. Every child and temporary folder made here is tracked; `cleanUp()` (in afterEach)
 * SIGKILLs whatever still runs and removes the folders.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder: children run here, as an operator runs `npm start` from a checkout. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The line `serve` and `npm start` print once they accept connections, with the base URL. */
export const LISTENING = /listening on (http:\/\/\S+)/;

/** The first-start line that shows the owner's token. */
export const FIRST_START_TOKEN = /API token of the owner \(shown once[^)]*\): (\S+)/;

/** How a child ended. */
export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** What a command that ran to its end printed, and how it ended. */
export interface Finished extends Exit {
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of a child. */
export interface StartOptions {
  /**
   * Variables added to the environment (PORT, HOST and DOCS_PLATFORM_DATA are never inherited;
   * DOCS_PLATFORM_RATE_LIMIT is 0 unless given).
   */
  env?: Record<string, string>;
  /** Its own process group, so that `signal` reaches the whole tree as a process manager's does. */
  group?: boolean;
  /** The umask it starts with (set by a shell that then becomes the command); default this process's. */
  umask?: number;
}

/** A running child process and its output so far. */
export class Child {
  stdout = '';
  stderr = '';
  /** Resolves once the process has exited and its output is read to the end. */
  readonly exited: Promise<Exit>;
  private readonly watchers = new Set<() => void>();

  constructor(
    readonly process: ChildProcess,
    private readonly group: boolean,
  ) {
    process.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      for (const watch of this.watchers) watch();
    });
    process.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      for (const watch of this.watchers) watch();
    });
    this.exited = new Promise((resolve) => process.once('close', (code, signal) => resolve({ code, signal })));
  }

  /** The process id (of the group leader for a child started with `group`). */
  get pid(): number {
    return this.process.pid!;
  }

  /** Resolves with the first match of `pattern` in stdout (or `stream`); rejects when the process exits first or on timeout (60 s by default: a start on a loaded machine took over 20). */
  waitFor(pattern: RegExp, timeoutMs = 60_000, stream: 'stdout' | 'stderr' = 'stdout'): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const finish = (error: Error | null, match?: RegExpMatchArray) => {
        this.watchers.delete(check);
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(match!);
      };
      const check = () => {
        const match = pattern.exec(this[stream]);
        if (match) finish(null, match);
      };
      const timer = setTimeout(() => finish(this.failure(`no ${pattern} within ${timeoutMs} ms`)), timeoutMs);
      this.watchers.add(check);
      void this.exited.then(({ code, signal }) => finish(this.failure(`exited (${code ?? signal}) before printing ${pattern}`)));
      check();
    });
  }

  /** Sends a signal to the process, or to its whole group when started with `group`. */
  signal(signal: NodeJS.Signals): void {
    try {
      if (this.group) globalThis.process.kill(-this.pid, signal);
      else this.process.kill(signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }

  private failure(what: string): Error {
    return new Error(`${what}\n--- stdout:\n${this.stdout}\n--- stderr:\n${this.stderr.slice(-4000)}`);
  }
}

const children = new Set<Child>();
const folders = new Set<string>();
/** The process groups of unreaped children, once known: no Child of theirs ends them. */
const groups = new Set<Promise<number>>();

/** Starts `command` in the project folder. */
export function start(command: string, args: string[], options: StartOptions = {}): Child {
  // Rate limits off unless a test sets them: the tests send far more than a client's budget a minute.
  const env: Record<string, string | undefined> = { ...process.env, DOCS_PLATFORM_RATE_LIMIT: '0', ...options.env };
  for (const name of ['PORT', 'HOST', 'DOCS_PLATFORM_DATA'] as const) if (!options.env?.[name]) delete env[name];
  if (options.umask !== undefined) [command, args] = ['sh', ['-c', `umask ${options.umask.toString(8).padStart(3, '0')} && exec "$@"`, 'sh', command, ...args]];
  const child = new Child(
    spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.group ?? false }),
    options.group ?? false,
  );
  children.add(child);
  void child.exited.then(() => children.delete(child));
  return child;
}

/**
 * The CLI as `npm run cli` runs it: bundled into build/server/ (test/setup/build-server.ts builds it before
 * the slow project's files run).
 */
export const CLI = 'build/server/cli.js';

/** Starts the CLI (`node build/server/cli.js ...args`), quicker than going through npm. */
export function startCli(args: string[], options: StartOptions = {}): Child {
  return start(process.execPath, ['--enable-source-maps', CLI, ...args], options);
}

/** A child whose parent never reaps it, and its pid. */
export interface Unreaped {
  /** The parent: a `sleep` that outlives the child (signalling it does not reach the child). */
  readonly parent: Child;
  /** The child's pid; it leads a process group of its own. */
  readonly pid: number;
}

/**
 * Starts `node --import tsx ...args` (a TypeScript file, or the CLI's JavaScript) in a process group of its own (setsid) whose parent is a `sleep` that never
 * reaps it: once killed, the child stays a zombie with its pid, as under a busy supervisor or a container's
 * init, until the parent is killed (then init reaps it). Its output goes to the parent's Child. Linux only.
 */
export async function startUnreaped(args: string[]): Promise<Unreaped> {
  const parent = start('sh', ['-c', 'setsid "$@" & echo "unreaped pid $!"; exec sleep 600', 'sh', process.execPath, '--import', 'tsx', ...args]);
  const pid = parent.waitFor(/unreaped pid (\d+)/).then(([, pid]) => Number(pid));
  groups.add(pid);
  return { parent, pid: await pid };
}

/** The state letter of a process in /proc/<pid>/stat (Z for a zombie), or undefined once it is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}

/** SIGKILLs an unreaped child's process group and waits (up to a second) until it is a zombie. */
export async function killToZombie(child: Unreaped): Promise<void> {
  process.kill(-child.pid, 'SIGKILL');
  const killed = performance.now();
  while (processState(child.pid) !== 'Z' && performance.now() - killed < 1_000) await new Promise((resolve) => setTimeout(resolve, 1));
  if (processState(child.pid) !== 'Z') throw new Error(`process ${child.pid} is ${processState(child.pid) ?? 'gone'}, not a zombie`);
}

/** Runs the CLI to its end. */
export async function runCli(args: string[], options: StartOptions = {}): Promise<Finished> {
  return finished(startCli(args, options));
}

/** Runs `npm run --silent cli -- ...args` to its end, exactly as operators' scripts do. */
export async function runNpmCli(args: string[]): Promise<Finished> {
  return finished(start('npm', ['run', '--silent', 'cli', '--', ...args]));
}

/** Waits for a child's end. */
export async function finished(child: Child): Promise<Finished> {
  const exit = await child.exited;
  return { ...exit, stdout: child.stdout, stderr: child.stderr };
}

/** A server that accepts connections. */
export interface Server {
  readonly child: Child;
  /** Its base URL, as printed on the listening line. */
  readonly url: string;
}

/** Waits until a server child prints its listening line. */
export async function listening(child: Child): Promise<Server> {
  const [, url] = await child.waitFor(LISTENING);
  return { child, url: url! };
}

/** Starts `serve --data data --port 0` and waits until it accepts connections. */
export async function serve(data: string, args: string[] = []): Promise<Server> {
  return listening(startCli(['serve', '--data', data, '--port', '0', ...args]));
}

/** A new temporary folder, removed by cleanUp(). */
export function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'docs-platform-process-'));
  folders.add(folder);
  return folder;
}

/** SIGKILLs every child still running (with its group) and removes the temporary folders; for afterEach. */
export async function cleanUp(): Promise<void> {
  for (const group of await Promise.allSettled(groups)) {
    try {
      if (group.status === 'fulfilled') process.kill(-group.value, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  groups.clear();
  const running = [...children];
  for (const child of running) child.signal('SIGKILL');
  await Promise.all(running.map((child) => child.exited));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders.clear();
}
