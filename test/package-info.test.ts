import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { PACKAGE } from '../src/package-info.js';

it('src/package-info.ts has the name and version of package.json (update it with the version)', () => {
  const { name, version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  expect(PACKAGE).toEqual({ name, version });
});
