import { spawn } from 'node:child_process';

/**
 * The parent and the child side of the bench's child processes. The server under test, the ceilings
 * and the seeder each run in their own `node --import tsx` process, so that the load generator never
 * shares an event loop (or a heap) with what it measures. A child reports over the IPC channel once it
 * is ready, and stops cleanly on SIGTERM or when the parent goes away.
 */

type Message<T> = { type: 'ready'; info: T } | { type: 'failed'; message: string };

/** A running child process and what it reported when it became ready. */
export interface Child<T> {
  readonly pid: number;
  readonly info: T;
  /** Asks the child to stop (SIGTERM) and waits for it to exit; kills it after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Sends a child that takes work after it is ready (see the store case) a message, and resolves with its answer. */
  request<R>(message: unknown): Promise<R>;
}

/**
 * Starts `node [nodeOptions] --import tsx <script> [args]` (a .js script, compiled by compiled.ts, without
 * tsx) and waits until it reports ready.
 */
export function startChild<T>(script: string, args: string[] = [], nodeOptions: string[] = []): Promise<Child<T>> {
  const loader = script.endsWith('.js') ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...nodeOptions, ...loader, script, ...args], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message: Message<T>) => {
      child.off('exit', onExit);
      if (message.type === 'failed') {
        reject(new Error(`${script} failed: ${message.message}`));
        return;
      }
      resolve({
        pid: child.pid!,
        info: message.info,
        request<R>(work: unknown) {
          return new Promise<R>((resolveAnswer, rejectAnswer) => {
            const onExit = () => rejectAnswer(new Error(`${script} exited before it answered`));
            child.once('exit', onExit);
            child.once('message', (answer: R) => {
              child.off('exit', onExit);
              resolveAnswer(answer);
            });
            child.send(work as object);
          });
        },
        async stop(graceMs = 60_000) {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        },
      });
    });
  });
}

/**
 * The child side: runs `start`, reports its info to the parent, and on SIGTERM (or when the parent is
 * gone) runs the returned `stop` and exits, so that `--cpu-prof` gets to write its profile.
 */
export function runAsChild<T>(start: () => Promise<{ info: T; stop?: () => Promise<void> }>): void {
  start().then(
    ({ info, stop }) => {
      let stopping = false;
      const shutdown = () => {
        if (stopping) return;
        stopping = true;
        (stop ?? (async () => undefined))().then(
          () => process.exit(0),
          (error) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.on('SIGTERM', shutdown);
      process.on('disconnect', shutdown);
      process.send?.({ type: 'ready', info } satisfies Message<T>);
    },
    (error) => {
      const message = (error as Error)?.stack ?? String(error);
      // Exit only once the message is out: an exit right after send() can drop it.
      if (process.send) process.send({ type: 'failed', message } satisfies Message<T>, () => process.exit(1));
      else {
        console.error(message);
        process.exit(1);
      }
    },
  );
}
