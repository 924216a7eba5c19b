import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { cleanUp, CLI, finished, listening, processState, startCli, startUnreaped, tempDir, type Server, type Unreaped } from './spawn.js';

afterEach(cleanUp);

/** How many times the server is killed and started again at once; RESTART_ITERATIONS raises it. */
const ITERATIONS = Math.max(20, Number(process.env.RESTART_ITERATIONS ?? 20));

/** `serve` in a process group of its own whose parent never reaps it; resolves once it listens, or rejects on its error line. */
async function serveUnreaped(data: string): Promise<Server & Unreaped> {
  const server = await startUnreaped([CLI, 'serve', '--data', data, '--port', '0']);
  // The parent outlives a server that refused to start: fail on its error line rather than time out.
  const refused = server.parent.waitFor(/^error: .*/m, 20_000, 'stderr').then(
    ([line]) => Promise.reject(new Error(line)),
    () => new Promise<never>(() => undefined),
  );
  return { ...server, ...(await Promise.race([listening(server.parent), refused])) };
}

describe('the lock of the data file', () => {
  test.skipIf(process.platform !== 'linux')(`a server killed with kill -9 starts again at once, while the dead one is still a zombie, ${ITERATIONS} times in a row`, { timeout: 30_000 + ITERATIONS * 15_000 }, async () => {
    const data = join(tempDir(), 'data.json');
    let server = await serveUnreaped(data);
    let restarted = 0;
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      process.kill(-server.pid, 'SIGKILL');
      // Started at once: no wait for the dead server to be reaped, nor for its lock to age.
      const next = serveUnreaped(data);
      const dead = server;
      server = await next; // rejects with the server's error line if it refused the lock
      // A zombie from the kill on (it takes the new server longer than that to reach the lock), and still one.
      expect(processState(dead.pid), 'the dead server is a zombie').toBe('Z');
      dead.parent.signal('SIGKILL'); // the zombie goes to init, which reaps it
      restarted++;
    }
    console.log(`restarted ${restarted} of ${ITERATIONS} times at once after kill -9, without a refusal`);
    expect(restarted).toBe(ITERATIONS);
  });

  test('a second server on a file a live server holds is refused with a clear message, and the first keeps serving', async () => {
    const data = join(tempDir(), 'data.json');
    const first = await listening(startCli(['serve', '--data', data, '--port', '0']));
    const second = await finished(startCli(['serve', '--data', data, '--port', '0']));
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toBe('');
    expect(second.stderr).toBe(
      `error: ${data} is in use by process ${first.child.pid} (a running docs-platform server or CLI). ` +
        'Stop that process first: only one process may open a data file at a time.\n',
    );
    expect((await fetch(`${first.url}/v1/orgs`)).status).toBe(401);
  });

  test('user create and token create on a file a server holds name the HTTP way in their one-line refusal', { timeout: 60_000 }, async () => {
    const data = join(tempDir(), 'data.json');
    const server = await listening(startCli(['serve', '--data', data, '--port', '0']));
    const held = `error: ${data} is in use by process ${server.child.pid} (a running docs-platform server or CLI). While it runs, `;
    const user = await finished(startCli(['user', 'create', '--data', data, '--org', 'o', '--email', 'a@b.co', '--name', 'A', '--role', 'read']));
    expect(user.code, user.stderr).toBe(1);
    expect(user.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(user.stderr).toContain(`${held}invite users over HTTP: an admin calls POST /v1/orgs/<org>/invites`);
    const token = await finished(startCli(['token', 'create', '--data', data, '--user', 'u']));
    expect(token.code, token.stderr).toBe(1);
    expect(token.stderr).toContain(`${held}a user makes more tokens over HTTP with POST /v1/user/tokens`);
    expect(token.stderr).toMatch(/; or stop it first: only one process may open a data file at a time\.\n$/);
  });
});
