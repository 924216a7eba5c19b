import { afterAll } from 'vitest';
import { runFileEnd } from './file-end-hooks.js';

/**
 * vitest's setup file, evaluated again before every test file (while the helpers it shares are not: files
 * are not isolated): at the end of each file, runs what the shared helpers registered with atFileEnd.
 */
afterAll(runFileEnd);
