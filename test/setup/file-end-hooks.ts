/**
 * Clean-ups at the end of every test file, for helper modules that hold per-file state. Test files share a
 * worker's modules (vitest's `isolate: false`), so a helper is evaluated once per worker: an `afterAll` at its
 * top level would run after the first file only. A helper registers here once instead.
 */
const hooks = new Set<() => Promise<void> | void>();

/** Runs `hook` at the end of every test file, from now on. */
export function atFileEnd(hook: () => Promise<void> | void): void {
  hooks.add(hook);
}

/** Runs the registered clean-ups, in order of registration (test/setup/file-end.ts calls it). */
export async function runFileEnd(): Promise<void> {
  for (const hook of hooks) await hook();
}
