import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** How the servers under test run: `compiled` (default, as `npm start` runs the server) or `tsx` (BENCH_RUNTIME). */
export type BenchRuntime = 'compiled' | 'tsx';

/** The runtime chosen with BENCH_RUNTIME. */
export function benchRuntime(): BenchRuntime {
  const raw = process.env.BENCH_RUNTIME || 'compiled';
  if (raw !== 'compiled' && raw !== 'tsx') throw new Error(`BENCH_RUNTIME must be compiled or tsx, not ${JSON.stringify(raw)}`);
  return raw;
}

/** The worker threads' module, which a child that runs jobs in threads needs beside it (`worker.js`, where src/workers/pool.ts looks). */
export const WORKER_ENTRY = { worker: join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'workers', 'worker.ts') };

/**
 * Bundles a bench child script (a .ts file) into plain JavaScript in `outDir`, as scripts/build-server.mjs
 * builds `npm start`'s server: esbuild without name-keeping, dependencies left in node_modules. `more`
 * bundles other entries beside it, by output name (WORKER_ENTRY). Returns the .js file, which startChild
 * runs without tsx's loader.
 */
export async function compileChild(script: string, outDir: string, more: Record<string, string> = {}): Promise<string> {
  const name = script.replace(/^.*\//, '').replace(/\.ts$/, '');
  await build({
    entryPoints: { [name]: script, ...more },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    keepNames: false,
    logLevel: 'warning',
  });
  return join(outDir, `${name}.js`);
}

/**
 * The options `npm start` gives node (package.json's start script, e.g. --enable-source-maps), so
 * that the bench's compiled servers run as it runs the server.
 */
export function startNodeOptions(): string[] {
  const manifest = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const command = /\bnode((?: --\S+)*) build\/server\/server\.js/.exec(manifest.scripts.start);
  if (!command) throw new Error(`package.json's start script does not run node build/server/server.js: ${manifest.scripts.start}`);
  return command[1].split(' ').filter(Boolean);
}
