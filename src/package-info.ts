/**
 * The package's name and version as package.json has them (test/package-info.test.ts checks that they
 * agree), for the landing answer at `/`. A constant rather than a read of package.json: the Fetch adapter
 * runs where there are no files, and a JSON import needs syntax Node 20 learned only in 20.10.
 */
export const PACKAGE = { name: 'docs-platform', version: '0.1.0' } as const;
