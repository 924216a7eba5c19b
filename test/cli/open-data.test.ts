import { describe, expect, it } from 'vitest';
import { postgresOptions, shownData } from '../../src/cli/open-data.js';

/** What a `--data postgres://…` URL gives the store, and how it is printed. */

describe('postgresOptions', () => {
  it('takes the schema and the query timeout out of the URL and leaves the rest to the driver', () => {
    expect(postgresOptions('postgres://u:p@db:5432/docs?schema=team_a&query_timeout=1500&sslmode=require')).toEqual({
      connectionString: 'postgres://u:p@db:5432/docs?sslmode=require',
      schema: 'team_a',
      queryTimeoutMs: 1500,
    });
    expect(postgresOptions('postgres://db/docs')).toEqual({ connectionString: 'postgres://db/docs', schema: undefined });
  });

  it('refuses a query timeout that is not a positive number of milliseconds', () => {
    for (const bad of ['0', '-1', '1.5', 'soon', '', '1000000000']) {
      expect(() => postgresOptions(`postgres://db/docs?query_timeout=${bad}`)).toThrow(/query_timeout .* milliseconds/);
    }
  });
});

describe('shownData', () => {
  it('hides the password of a database URL', () => {
    expect(shownData('postgres://u:secret@db/docs')).toBe('postgres://u:***@db/docs');
    expect(shownData('./data/docs-platform.json')).toBe('./data/docs-platform.json');
  });
});
