import { describe, expect, it } from 'vitest';
import { headDocs } from '../../src/core/git-sync/export-edit.js';
import type { FetchedTree } from '../../src/core/git-sync/transport.js';

/** Which files of a branch's head an export owns (rewrites or removes), and which it leaves alone. */

const head = (files: Record<string, string>): FetchedTree => ({
  commit: { oid: 'a'.repeat(40), message: 'x' },
  files: Object.entries(files).map(([path, text]) => ({ path, bytes: new TextEncoder().encode(text) })),
});

describe('headDocs', () => {
  it('owns the configuration, the summary, the pages it lists, the readme and the assets, under root in the project directory', () => {
    const docs = headDocs(
      head({
        'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  summary: toc.md\nredirects:\n  old: new.md\n',
        'docs/content/toc.md': '# Contents\n\n* [A](a.md)\n* [B](b/README.md)\n  * [C](b/c%20d.md#part)\n* [Out](https://example.test)\n',
        'docs/content/README.md': '# Readme',
        'docs/content/NOTES.md': 'not listed',
        'docs/content/.gitbook/assets/logo.png': 'png',
        'docs/package.json': '{}',
      }),
      './docs/',
    );
    expect(docs.project).toBe('docs');
    expect(docs.config).toMatchObject({ root: 'content', summary: 'toc.md', redirects: { old: 'new.md' } });
    expect([...docs.owned].sort()).toEqual([
      'docs/.gitbook.yaml',
      'docs/content/.gitbook/assets/logo.png',
      'docs/content/README.md',
      'docs/content/a.md',
      'docs/content/b/README.md',
      'docs/content/b/c d.md',
      'docs/content/toc.md',
    ]);
  });

  it('owns no Markdown file but the readme without a summary, and only the defaults of a branch that does not exist', () => {
    expect([...headDocs(head({ 'README.md': '# R', 'CHANGELOG.md': '# C', 'src/x.ts': '' }), '').owned].sort()).toEqual(['.gitbook.yaml', 'README.md', 'SUMMARY.md']);
    expect(headDocs(undefined, '')).toMatchObject({ project: '', config: { root: '' } });
  });

  it('refuses a project directory that leaves the repository', () => {
    expect(() => headDocs(undefined, '../x')).toThrow(/repoProjectDirectory/);
  });
});
