import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest's global setup: builds what `npm start` and `npm run cli` run (scripts/build-server.mjs, a no-op when the sources
 * have not changed) once, before any test file, so that the process tests that start build/server/server.js
 * never build it concurrently from two workers.
 */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-server.mjs', '--quiet'], { cwd: fileURLToPath(new URL('../../', import.meta.url)), stdio: 'inherit' });
}
