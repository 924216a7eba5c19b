import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocsAssets } from '../openapi/docs-page.js';

/**
 * The files of the API reference page, read from the installed swagger-ui-dist package (a dependency, so
 * the page needs no network) once each and then kept in memory.
 */
export function swaggerUiAssets(): DocsAssets {
  const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Promise<string>>();
  return {
    read(name) {
      let file = files.get(name);
      if (!file) {
        file = readFile(join(folder, name), 'utf8');
        // A failed read is not kept: the next request tries again.
        file.catch(() => files.delete(name));
        files.set(name, file);
      }
      return file;
    },
  };
}
