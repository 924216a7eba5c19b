import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The tests that are slow by nature, run by `npm run test:slow` (the `slow` project) instead of `npm test`:
 * real child processes and worker threads (each loads the sources through tsx; kill -9, lock and shutdown
 * soaks, the CLI, jobs on the worker pool), a real Git server (`git http-backend`, test/git/), the packed package installed into an app, the 2,000-page PDF,
 * and the two tests that drive Chromium.
 */
const SLOW = [
  'test/process/**/*.test.ts',
  'test/workers/**/*.test.ts',
  'test/git/**/*.test.ts',
  'test/embedding/**/*.test.ts',
  'test/content/pdf-large.test.ts',
  'test/openapi/browser.test.ts',
  'test/reader/browser.test.ts',
  'test/reader/accessibility.test.ts',
];

/**
 * Two projects over test/: `quick` (`npm test`) and `slow` (`npm run test:slow`). A file named on the command
 * line runs in whichever project holds it.
 */
export default defineConfig({
  test: {
    exclude: [...configDefaults.exclude, 'dist/**'],
    // A default for the quick suites; slow ones (test/embedding) set their own.
    testTimeout: 10_000,
    hookTimeout: 10_000,
    fileParallelism: true,
    // Both cores (vitest's default is the cores but one: a single worker here); many tests wait on sockets.
    maxWorkers: 2,
    // One module graph per worker, not per file: importing the sources again for each file was half the run.
    // Nothing a test file leaves in a shared module may outlive it: test/setup/file-end.ts ends each file.
    isolate: false,
    setupFiles: ['test/setup/file-end.ts'],
    projects: [
      { extends: true, test: { name: 'quick', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'dist/**', ...SLOW] } },
      // Two files at a time, as the quick project: their children start from build/server/ (plain JavaScript,
      // built once here), no longer compiling the sources through tsx each, and their waits are for events
      // with generous bounds. All 25 files passed so at load 25, in less time than one at a time took.
      { extends: true, test: { name: 'slow', include: SLOW, globalSetup: ['test/setup/build-server.ts'] } },
    ],
  },
});
