#!/usr/bin/env node
/**
 * Builds what `npm start` and `npm run cli` run: src/server.ts, src/cli.ts and the worker threads' module (src/workers/worker.ts)
 * bundled with esbuild into build/server/ as plain JavaScript, only when the sources changed since the
 * last build. No name-keeping: tsx keeps function names with a `__name` call around every closure, which
 * cost the server ~15% of its requests a second. Dependencies are bundled but for those that read files
 * beside their own code (see `external`). `npm test` runs the TypeScript through tsx.
 *
 * Usage: node scripts/build-server.mjs [--force] [--quiet]
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build', 'server');
const stampFile = join(out, 'sources.sha256');

/** The files whose change calls for a new build: every source, and what decides the dependencies. */
function sources() {
  const files = [join(root, 'package.json'), join(root, 'package-lock.json'), fileURLToPath(import.meta.url)];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(path);
    }
  };
  walk(join(root, 'src'));
  return files.sort();
}

/**
 * A fingerprint of the sources: names, sizes and modification times (no file is read, so that a start with
 * nothing to build stays a few milliseconds). A file added, removed or touched changes it.
 */
function fingerprint(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const args = new Set(process.argv.slice(2));
const stamp = fingerprint(sources());
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : '';
if (!args.has('--force') && built === stamp && existsSync(join(out, 'server.js'))) process.exit(0);

const started = performance.now();
const { build } = await import('esbuild');
await build({
  absWorkingDir: root,
  // The worker module sits beside server.js, where src/workers/pool.ts looks for it (./worker.js). The CLI
  // (`npm run cli`) starts from plain JavaScript too: through tsx, each command spent ~3 s compiling.
  entryPoints: { server: 'src/server.ts', worker: 'src/workers/worker.ts', cli: 'src/cli.ts' },
  outdir: out,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Dependencies go in the bundle too: loaded from node_modules, the micromark and mdast family alone are
  // hundreds of small modules, and `init` spent 0.78 s starting, not 0.41 s. Those that read files beside
  // their own code stay outside: pdfkit (fonts), the OpenAPI validator (its schemas), pino (its transports'
  // worker), swagger-ui-dist (resolved by path), and pg (an optional native binding).
  external: ['pdfkit', '@seriousme/openapi-schema-validator', 'pino', 'swagger-ui-dist', 'pg'],
  // CommonJS dependencies in an ES module bundle call require for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  keepNames: false,
  sourcemap: 'linked',
  logLevel: 'warning',
});
writeFileSync(stampFile, stamp);
if (!args.has('--quiet')) console.error(`built build/server/ in ${Math.round(performance.now() - started)} ms`);
