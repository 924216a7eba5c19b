import { join } from 'node:path';
import { build } from 'esbuild';

/** How the servers under test run: `compiled` (default, as `npm start` runs the server) or `tsx` (BENCH_RUNTIME). */
export type BenchRuntime = 'compiled' | 'tsx';

/** The runtime chosen with BENCH_RUNTIME. */
export function benchRuntime(): BenchRuntime {
  const raw = process.env.BENCH_RUNTIME || 'compiled';
  if (raw !== 'compiled' && raw !== 'tsx') throw new Error(`BENCH_RUNTIME must be compiled or tsx, not ${JSON.stringify(raw)}`);
  return raw;
}

/**
 * Bundles a bench child script (a .ts file) into plain JavaScript in `outDir`, as scripts/build-server.mjs
 * builds `npm start`'s server: esbuild without name-keeping, dependencies left in node_modules. Returns the
 * .js file, which startChild runs without tsx's loader.
 */
export async function compileChild(script: string, outDir: string): Promise<string> {
  const name = script.replace(/^.*\//, '').replace(/\.ts$/, '');
  await build({
    entryPoints: { [name]: script },
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
