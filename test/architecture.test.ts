import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Route } from '../src/core/operation.js';
import { operations } from '../src/core/operations.js';
import { routes } from '../src/core/routes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const core = join(src, 'core');
const adapters = join(src, 'adapters');
const store = join(src, 'store');
/**
 * The worker pool: Node's worker_threads, so it lives outside the core, like the stores that touch disk and
 * node-http. It may use Node APIs; it reaches the core only through the jobs and the port it runs them for.
 */
const workers = join(src, 'workers');
/**
 * The outbound fetch on Node (node:http, node:https, node:dns): Node code outside the core, which the Node
 * entry (src/index.ts) and the server inject as the platform's `fetch` port; beside it the Git transport
 * (isomorphic-git over that fetch), which implements the Git transport port. Its address rules
 * (addresses.ts, allow-list.ts) stay runtime-free, so that they are tested alone and could serve elsewhere.
 */
const outbound = join(src, 'outbound');

/** The TypeScript files under a folder, recursively. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The module specifiers a file imports or re-exports: `import … from 'x'`, `export … from 'x'`,
 * `import 'x'`, `import('x')` and `import type`. Comments are dropped first so prose cannot match.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]));
}

/** The file a relative specifier names (`./x.js` is written for `./x.ts`); undefined for packages. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts'), target, `${target}.ts`, join(target, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? target;
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(specifier) || builtins.has(specifier.split('/')[0]);

/**
 * Node modules the core may import anyway. Empty: the core reaches randomness and hashing through the
 * Web Crypto global (`crypto.getRandomValues`, `crypto.subtle`), which Node, Deno, Bun and Workers all have,
 * so it needs no `node:crypto`. Add an entry only with a comment saying why no portable API serves.
 */
const CORE_BUILTIN_ALLOWLIST = new Set<string>([]);

/**
 * The core modules an adapter may import: the platform, the route table, and the shapes it translates; the
 * reader's operations (reader.ts), which a published site's MCP server runs as the reader does; and the
 * printer of results (json-text.ts), which splices in the JSON a job made.
 */
const CORE_ENTRY_POINTS = ['platform.ts', 'operation.ts', 'routes.ts', 'errors.ts', 'schemas.ts', 'context.ts', 'validate.ts', 'rate-limit.ts', 'reader.ts', 'json-text.ts'].map((name) =>
  join(core, name),
);

const show = (file: string) => relative(root, file).split(sep).join('/');
const inside = (folder: string, file: string) => file.startsWith(folder + sep);

/**
 * The Node builtins reachable from some files, outside an allowlist: walks the import graph through every
 * module under src/ they pull in, so a helper imported from elsewhere counts as part of them.
 */
function builtinImportsFrom(files: string[], allowed: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  const pending = [...files];
  const visited = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (visited.has(file)) continue;
    visited.add(file);
    for (const specifier of importsOf(file)) {
      if (isBuiltin(specifier)) {
        if (!allowed.has(specifier)) problems.push(`${show(file)} imports '${specifier}'`);
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (target && inside(src, target)) pending.push(target);
    }
  }
  return problems;
}

describe('src/core is free of any runtime', () => {
  it('imports no Node builtin, directly or through the modules outside src/core it pulls in', () => {
    // Walk the import graph from every core file: a store helper imported by the core is part of the core.
    expect(builtinImportsFrom(sourceFiles(core), CORE_BUILTIN_ALLOWLIST)).toEqual([]);
  });
});

describe('the core and the store meet at the interface', () => {
  /** The store files the core may import: the interface, the order it states, and the blob contract. */
  const STORE_INTERFACE = ['types.ts', 'order.ts', 'blobs.ts'].map((name) => join(store, name));

  it('the core imports no store implementation, only the interface', () => {
    const problems = sourceFiles(core).flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target): target is string => target !== undefined && inside(store, target) && !STORE_INTERFACE.includes(target))
        .map((target) => `${show(file)} imports ${show(target)}`),
    );
    expect(problems).toEqual([]);
  });

  it('the store imports nothing from the core', () => {
    const problems = sourceFiles(store).flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target): target is string => target !== undefined && inside(core, target))
        .map((target) => `${show(file)} imports ${show(target)}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('the adapters only translate', () => {
  it('reach the core only through its entry points, and never the store', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(adapters)) {
      for (const specifier of importsOf(file)) {
        const target = resolveRelative(file, specifier);
        if (!target) continue;
        if (inside(core, target) && !CORE_ENTRY_POINTS.includes(target)) {
          problems.push(`${show(file)} imports ${show(target)}; use one of ${CORE_ENTRY_POINTS.map(show).join(', ')}`);
        }
        if (inside(store, target)) problems.push(`${show(file)} imports ${show(target)}; the store is reached through the platform`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('use Node builtins only in node-http: the pipeline, the OpenAPI generator and the Fetch adapter run on every runtime', () => {
    const nodeHttp = join(adapters, 'node-http');
    expect(builtinImportsFrom(sourceFiles(adapters).filter((file) => !inside(nodeHttp, file)))).toEqual([]);
  });
});

describe('the published-site reader only renders', () => {
  const reader = join(src, 'reader');
  /** The core modules the reader may import: the platform it runs operations on, and its read operations with their data. */
  const allowed = ['platform.ts', 'reader.ts'].map((name) => join(core, name));

  it('reaches the core only through the platform and its reader operations, and never the store', () => {
    const problems = sourceFiles(reader).flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target): target is string => target !== undefined && ((inside(core, target) && !allowed.includes(target)) || inside(store, target)))
        .map((target) => `${show(file)} imports ${show(target)}; use one of ${allowed.map(show).join(', ')}`),
    );
    expect(problems).toEqual([]);
  });

  it('uses no Node builtin: both adapters serve it, the Fetch one on every runtime', () => {
    expect(builtinImportsFrom(sourceFiles(reader))).toEqual([]);
  });
});

describe('the worker pool only runs jobs', () => {
  it('reaches the core only through the job registry, the Workers port and the job type', () => {
    const allowed = ['jobs.ts', 'workers.ts', 'job.ts'].map((name) => join(core, name));
    const problems = sourceFiles(workers).flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target): target is string => target !== undefined && inside(core, target) && !allowed.includes(target))
        .map((target) => `${show(file)} imports ${show(target)}; use one of ${allowed.map(show).join(', ')}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('the outbound fetch is a port implementation', () => {
  it('reaches the core only for the ports it implements', () => {
    // The Git transport also runs its object work as jobs (git-jobs.ts) on the Workers port.
    const allowed = [join(core, 'context.ts'), join(core, 'git-sync', 'transport.ts'), ...['job.ts', 'jobs.ts', 'workers.ts'].map((name) => join(core, name))];
    const problems = sourceFiles(outbound).flatMap((file) =>
      importsOf(file)
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target): target is string => target !== undefined && inside(core, target) && !allowed.includes(target))
        .map((target) => `${show(file)} imports ${show(target)}; the outbound code implements the ports of ${allowed.map(show).join(' and ')}`),
    );
    expect(problems).toEqual([]);
  });

  it('keeps its address rules free of any runtime', () => {
    expect(builtinImportsFrom(['addresses.ts', 'allow-list.ts'].map((name) => join(outbound, name)))).toEqual([]);
  });
});

describe('operations and routes', () => {
  const all = Object.entries(operations);

  it('name each operation after its key in `operations`', () => {
    const problems = all.filter(([key, operation]) => operation.name !== key).map(([key, operation]) => `${key} is named ${operation.name}`);
    expect(problems).toEqual([]);
  });

  it('serve every operation from exactly one route, and route only to listed operations', () => {
    const listed = new Set<unknown>(all.map(([, operation]) => operation));
    const problems: string[] = [];
    for (const [key, operation] of all) {
      const serving = routes.filter((route) => route.operation === operation);
      if (serving.length !== 1) {
        problems.push(`${key}: served by ${serving.length} routes${serving.length ? ` (${serving.map((r) => `${r.method} ${r.path}`).join(', ')})` : ''}`);
      }
    }
    for (const route of routes) {
      if (!listed.has(route.operation)) problems.push(`${route.method} ${route.path}: its operation ${route.operation.name} is not in operations`);
    }
    expect(problems).toEqual([]);
  });

  it('take exactly the path parameters their route names', () => {
    const problems = routes
      .map((route) => [route, [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort(), Object.keys(route.operation.params).sort()] as const)
      .filter(([, inPath, taken]) => inPath.join() !== taken.join())
      .map(([route, inPath, taken]) => `${route.method} ${route.path}: path has {${inPath.join(', ')}}, ${route.operation.name} takes {${taken.join(', ')}}`);
    expect(problems).toEqual([]);
  });

  it('describe a response body exactly when the status has one', () => {
    const noContent = (route: Route) => route.status === 204 || route.status === 205;
    const problems = routes
      .filter((route) => noContent(route) === (route.operation.response !== null))
      .map((route) =>
        noContent(route)
          ? `${route.method} ${route.path}: answers ${route.status} (no content) but ${route.operation.name} has a response schema`
          : `${route.method} ${route.path}: answers ${route.status} but ${route.operation.name} has no response schema`,
      );
    expect(problems).toEqual([]);
  });
});

/**
 * The import circles of a graph: its strongly connected components of more than one module (or a module that
 * imports itself), by Tarjan's algorithm, each shown as one cycle through it so that the message says where
 * to cut.
 */
function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (module: string) => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)?.includes(module)) components.push(component);
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return components.map((component) => cycleThrough(graph, new Set(component)));
}

/** One cycle inside a strongly connected component, from its first module back to it (breadth first: the shortest). */
function cycleThrough(graph: ReadonlyMap<string, readonly string[]>, component: ReadonlySet<string>): string[] {
  const start = [...component].sort()[0];
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const module = queue.shift()!;
    for (const target of graph.get(module) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const cycle = [module];
        while (cycle[0] !== start) cycle.unshift(previous.get(cycle[0])!);
        return [...cycle, start];
      }
      if (!previous.has(target)) {
        previous.set(target, module);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

describe('the import graph of src/', () => {
  it('has no circles, type imports included', () => {
    const files = sourceFiles(src);
    const graph = new Map(
      files.map((file) => [
        file,
        [...new Set(importsOf(file).map((specifier) => resolveRelative(file, specifier)))].filter((target): target is string => target !== undefined && inside(src, target)),
      ]),
    );
    expect(importCircles(graph).map((cycle) => cycle.map(show).join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(importCircles(graph)).toEqual([['a', 'b', 'c', 'a'], ['e', 'e']]);
  });
});
