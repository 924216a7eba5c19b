import { defineConfig } from 'vitest/config';

/** Every `*.test.ts` under test/, each file in its own worker, in parallel. */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'dist/**'],
    // A default for the quick suites; slow ones (test/embedding) set their own.
    testTimeout: 10_000,
    hookTimeout: 10_000,
    fileParallelism: true,
    // Builds build/server/ (what `npm start` runs) once, for the process tests that start it.
    globalSetup: ['test/setup/build-server.ts'],
  },
});
