import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { markdownExcess } from '../../src/core/content/markdown-limits.js';
import { readPageText } from '../../src/core/content/author/page-text.js';
import { localIds } from '../../src/core/content/import/local-ids.js';
import type { PlannedPage } from '../../src/core/content/import/plan.js';
import { ApiError } from '../../src/core/errors.js';
import { readGitbookConfig, writeGitbookConfig } from '../../src/core/git-sync/gitbook-yaml.js';
import { readRepository, type RepoEntry } from '../../src/core/git-sync/read-repository.js';
import { relativePath, safeRelativePath } from '../../src/core/git-sync/repo-paths.js';
import { writeRepository, type SyncedPage } from '../../src/core/git-sync/write-repository.js';
import { hostileMarkdown } from '../property/markdown/hostile.js';
import { runs } from '../property/runs.js';

/** The hosted repository format, read and written as pure functions (src/core/git-sync/). */

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Repository entries from text files. */
const repo = (files: Record<string, string>, symlinks: string[] = []): RepoEntry[] =>
  Object.entries(files).map(([path, text]) => ({ path, bytes: encode(text), ...(symlinks.includes(path) && { symlink: true }) }));

/** Reads a repository with fresh local ids. */
const read = (entries: RepoEntry[], project = '') => readRepository(localIds().next, entries, project, 'repo');

/** The message of the ApiError a call throws. */
function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error('it did not throw');
}

/** A page tree as titles, types and nesting. */
const shape = (pages: readonly PlannedPage[]): unknown[] => pages.map((page) => [page.type, page.title, ...(page.pages.length ? [shape(page.pages)] : [])]);

const HOSTED = {
  'package.json': '{}',
  'docs/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: intro.md\n  summary: SUMMARY.md\nredirects:\n  help: guides/support.md\n',
  'docs/content/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Intro](intro.md)',
    '* [Guides](guides/README.md "All the guides")',
    '  * [Setup](guides/setup.md)',
    '  * [Support](guides/support.md)',
    '* [Status](https://status.acme.test)',
    '',
    '## Reference',
    '',
    '* [API](reference/api.md)',
    '',
  ].join('\n'),
  'docs/content/intro.md': '---\ndescription: Where to start\nicon: rocket\n---\n\n# Welcome\n\nRead [the setup](guides/setup.md#install) first.\n\n![Logo](.gitbook/assets/logo.png)\n',
  'docs/content/guides/README.md': '# Guides\n\n{% hint style="info" %}\nHints stay verbatim.\n{% endhint %}\n',
  'docs/content/guides/setup.md': '---\nhidden: true\n---\n\n# Setup\n\n## Install\n\nBack to [the intro](../intro.md).\n',
  'docs/content/guides/support.md': '# Support\n\n{% embed url="https://video.acme.test/1" %}\n',
  'docs/content/reference/api.md': '# API\n\n{% tabs %}\n{% tab title="JS" %}\nx\n{% endtab %}\n{% endtabs %}\n',
  'docs/content/.gitbook/assets/logo.png': 'PNG',
  'docs/content/.gitbook/assets/unlinked.pdf': 'PDF',
  'docs/content/notes.md': '# Not in the summary\n',
};

describe('readRepository', () => {
  it('reads the hosted format: configuration, summary with groups and quoted titles, front matter, assets, links', () => {
    const { plan, config, docs, sources } = read(repo(HOSTED), 'docs');
    expect(config).toEqual({ root: 'content', readme: 'intro.md', summary: 'SUMMARY.md', redirects: { help: 'guides/support.md' } });
    expect(docs).toBe('docs/content');
    expect(shape(plan.pages)).toEqual([
      ['document', 'Welcome'],
      ['document', 'All the guides', [['document', 'Setup'], ['document', 'Support']]],
      ['link', 'Status'],
      ['group', 'Reference', [['document', 'API']]],
    ]);
    const [intro, guides, status] = plan.pages;
    const [setup] = guides.pages;
    expect(intro.meta).toEqual({ description: 'Where to start', icon: 'rocket' });
    expect(setup.meta).toEqual({ hidden: true });
    expect(status.url).toBe('https://status.acme.test');
    const logo = plan.files.find((file) => file.name === 'logo.png')!;
    expect(intro.markdown).toBe(`Read [the setup](/pages/${setup.id}#install) first.\n\n![Logo](/files/${logo.id})\n`);
    expect(setup.markdown).toContain(`[the intro](/pages/${intro.id})`);
    expect(guides.markdown).toBe('{% hint style="info" %}\nHints stay verbatim.\n{% endhint %}\n');
    expect(plan.files.map((file) => [file.name, file.contentType, decode(file.bytes)])).toEqual([
      ['logo.png', 'image/png', 'PNG'],
      ['unlinked.pdf', 'application/pdf', 'PDF'],
    ]);
    expect(sources.get(setup.id)).toBe('guides/setup.md');
    // notes.md is in no summary: skipped, as package.json outside the docs is not even counted.
    expect(plan.skipped).toBe(1);
  });

  it('infers the tree from the folders without a summary, the readme first', () => {
    const { plan } = read(repo({ '.gitbook.yaml': 'structure:\n  readme: start.md\n', 'a.md': '# A', 'start.md': '# Start', 'b/README.md': '# B', 'b/c.md': '# C' }));
    expect(shape(plan.pages)).toEqual([['document', 'Start'], ['document', 'A'], ['document', 'B', [['document', 'C']]]]);
  });

  it('refuses unsafe paths, symlinks and malformed summaries, naming them', () => {
    expect(refusal(() => read(repo({ 'SUMMARY.md': '* [X](../x.md)\n', 'x.md': '' })))).toBe('repo: SUMMARY.md: "../x.md" points outside the docs');
    expect(refusal(() => read(repo({ 'SUMMARY.md': '* [X](/etc/x.md)\n', 'x.md': '' })))).toBe('repo: SUMMARY.md: "/etc/x.md" points outside the docs');
    expect(refusal(() => read(repo({ 'SUMMARY.md': '* [X](x.md)\n* [Y](./x.md)\n', 'x.md': '' })))).toBe('repo: SUMMARY.md: x.md is listed twice; one file is one page');
    expect(refusal(() => read(repo({ 'SUMMARY.md': '# Table of contents\n\nno list here\n', 'x.md': '' })))).toBe('repo: SUMMARY.md lists no pages');
    expect(refusal(() => read(repo({ 'a.md': '# A', 'b.md': '/etc/passwd' }, ['b.md'])))).toBe('repo: b.md is a symbolic link; the docs may hold none');
    expect(refusal(() => read(repo({ '.gitbook.yaml': 'root: ../\n', 'a.md': '' })))).toContain('.gitbook.yaml: root: "../" is not a safe relative path');
    expect(refusal(() => read(repo({ 'a.md': '' }), '../elsewhere'))).toContain('repoProjectDirectory');
    expect(refusal(() => read(repo({ '.gitbook.yaml': 'root: [1\n', 'a.md': '' })))).toMatch(/^\.gitbook\.yaml is not valid YAML/);
    expect(refusal(() => read(repo({ 'README.md': '> '.repeat(40) + 'deep' })))).toMatch(/^repo: README\.md: /);
  });
});

describe('gitbook.yaml', () => {
  it('reads defaults and canonical paths, and writes what it reads', () => {
    expect(readGitbookConfig('')).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} });
    const config = readGitbookConfig('root: ./docs//\nredirects:\n  /old/: new.md\n');
    expect(config).toEqual({ root: 'docs', readme: 'README.md', summary: 'SUMMARY.md', redirects: { old: 'new.md' } });
    expect(readGitbookConfig(writeGitbookConfig(config))).toEqual(config);
    expect(() => readGitbookConfig('redirects: [a]\n')).toThrow('redirects must be a mapping');
  });

  it('knows safe paths and relative links', () => {
    expect(safeRelativePath('./a//b/../c')).toBe('a/c');
    expect(safeRelativePath('a/../../b')).toBeUndefined();
    expect(safeRelativePath('a\\b')).toBeUndefined();
    expect(relativePath('a/b/c.md', 'a/d.md')).toBe('../d.md');
    expect(relativePath('x.md', 'a/d.md')).toBe('a/d.md');
  });
});

/** A page to write. */
const page = (id: string, path: string, title: string, extra: Partial<SyncedPage> = {}): SyncedPage => ({ id, type: 'document', path, title, meta: {}, markdown: '', pages: [], ...extra });

describe('writeRepository', () => {
  const content = {
    pages: [
      page('p1', 'intro', 'Intro (start here)', { meta: { description: 'First' }, markdown: 'See [setup](/pages/p3#install) and ![a](/files/f2).\n' }),
      page('p2', 'guides', 'Guides', { pages: [page('p3', 'guides/setup', 'Setup', { markdown: 'Back to [intro](/pages/p1).\n' })] }),
      { ...page('p4', 'status', 'Status'), type: 'link' as const, url: 'https://status.acme.test' },
      { ...page('g1', 'reference', 'Reference'), type: 'group' as const, pages: [page('p5', 'reference/api', 'API')] },
    ],
    files: [
      { id: 'f1', name: 'shot.png', bytes: encode('one') },
      { id: 'f2', name: 'shot.png', bytes: encode('two') },
    ],
  };

  it('writes pages at their Git paths, a summary, assets and the configuration, links made relative', () => {
    const files = writeRepository(content, { root: 'docs', redirects: { old: 'intro.md' } }).files;
    expect([...files.keys()].sort()).toEqual([
      '.gitbook.yaml',
      'docs/.gitbook/assets/shot (1).png',
      'docs/.gitbook/assets/shot.png',
      'docs/SUMMARY.md',
      'docs/guides/README.md',
      'docs/guides/setup.md',
      'docs/intro.md',
      'docs/reference/api.md',
    ]);
    expect(decode(files.get('docs/SUMMARY.md')!)).toBe(
      '# Table of contents\n\n- [Intro (start here)](intro.md)\n- [Guides](guides/README.md)\n  - [Setup](guides/setup.md)\n- [Status](https://status.acme.test)\n\n## Reference\n\n- [API](reference/api.md)\n',
    );
    expect(decode(files.get('docs/intro.md')!)).toBe('---\ndescription: First\n---\n\n# Intro (start here)\n\nSee [setup](guides/setup.md#install) and ![a](.gitbook/assets/shot%20\\(1\\).png).\n');
    expect(decode(files.get('docs/guides/setup.md')!)).toBe('# Setup\n\nBack to [intro](../intro.md).\n');
    expect(readGitbookConfig(decode(files.get('.gitbook.yaml')!))).toEqual({ root: 'docs', readme: 'intro.md', summary: 'SUMMARY.md', redirects: { old: 'intro.md' } });
  });

  it('reads back a title with runs of spaces, tabs or no-break spaces as it was written (a Markdown import makes such runs one space)', () => {
    const titles = ['Getting  started', 'a \t b', 'non\u00a0\u00a0breaking', '!  !'];
    const pages = titles.map((title, at) => page(`p${at}`, `s${at}`, title, at % 2 === 0 ? { markdown: 'Text.\n' } : {}));
    const files = writeRepository({ pages, files: [] }, { root: '', redirects: {} }).files;
    expect(read([...files].map(([path, bytes]) => ({ path, bytes }))).plan.pages.map((back) => back.title)).toEqual(titles);
  });

  it('writes a body with no link to rewrite as stored, and reads the page back as it was', () => {
    fc.assert(
      fc.property(hostileMarkdown(200), fc.string({ minLength: 1 }).filter((title) => title.trim() === title && title !== ''), fc.option(fc.string(), { nil: undefined }), (text, title, description) => {
        let stored: string;
        try {
          // Stored as the API stores a body (its frontmatter and leading heading taken as fields).
          stored = readPageText({ document: { markdown: text } }).markdown;
        } catch {
          return;
        }
        // Bodies that go as stored, and that print as they are stored (normalization's own stability is the
        // Markdown properties' job).
        fc.pre(!stored.includes('/pages/') && !stored.includes('/files/') && markdownExcess(stored) === undefined && normalizeMarkdown(stored) === stored);
        const meta = description === undefined ? {} : { description };
        const files = writeRepository({ pages: [page('p1', 'a', title, { meta, markdown: stored })], files: [] }, { root: '', redirects: {} }).files;
        const back = read([...files].map(([path, bytes]) => ({ path, bytes }))).plan.pages[0];
        expect({ title: back.title, meta: back.meta, markdown: back.markdown }).toEqual({ title, meta, markdown: stored });
      }),
      { numRuns: runs(500) },
    );
  });

  it('reads a page layout in the public API\'s spelling and in the hosted platform\'s, writes the first, and reads it back', () => {
    const hosted = '---\nlayout:\n  width: wide\n  title:\n    visible: false\n  cover:\n    visible: true\n    size: full\n  outline:\n    visible: false\n  unknownOption: 3\n---\n\n# Wide\n';
    const api = '---\nlayout:\n  description: false\n  pagination: false\n---\n\n# Plain\n';
    const { plan } = read(repo({ 'SUMMARY.md': '* [Wide](wide.md)\n* [Plain](plain.md)\n', 'wide.md': hosted, 'plain.md': api }));
    expect(plan.pages.map((page) => page.meta.layout)).toEqual([
      { width: 'wide', title: false, cover: true, coverSize: 'full', outline: false },
      { description: false, pagination: false },
    ]);
    expect(refusal(() => read(repo({ 'a.md': '---\nlayout:\n  title: maybe\n---\n# A\n' })))).toMatch(/^repo: a\.md: markdown: frontmatter layout\.title: /);
    const laidOut = { ...content, pages: [{ ...content.pages[0], meta: { layout: { width: 'wide' as const, outline: false } } }] };
    const written = writeRepository(laidOut, { root: '', redirects: {} }).files;
    expect(decode(written.get('intro.md')!)).toMatch(/^---\nlayout:\n  width: wide\n  outline: false\n---\n/);
    expect(read([...written].map(([path, bytes]) => ({ path, bytes }))).plan.pages[0].meta).toEqual({ layout: { width: 'wide', outline: false } });
  });

  it('writes the pages and files where the last sync found them, the others where their slugs say, never on a taken path', () => {
    // The repository's own layout: the intro at its root README, setup under docs/, the second shot in images/.
    // A new page whose slugs would take setup's old derived path, or one whose path was unsafe, goes elsewhere.
    const recorded = { p1: 'README.md', p3: 'docs/Setting Up.md', f2: 'images/shot.png', p5: '../outside.md', p2: 'guides/setup.md' };
    const { files, paths } = writeRepository(content, { root: '', redirects: {} }, recorded);
    expect(Object.fromEntries(paths)).toEqual({
      p1: 'README.md',
      p2: 'guides/setup.md',
      p3: 'docs/Setting Up.md',
      p5: 'reference/api.md',
      f1: '.gitbook/assets/shot.png',
      f2: 'images/shot.png',
    });
    expect(decode(files.get('SUMMARY.md')!)).toContain('- [Guides](guides/setup.md)\n  - [Setup](docs/Setting%20Up.md)\n');
    expect(decode(files.get('README.md')!)).toBe('---\ndescription: First\n---\n\n# Intro (start here)\n\nSee [setup](docs/Setting%20Up.md#install) and ![a](images/shot.png).\n');
    expect(decode(files.get('docs/Setting Up.md')!)).toBe('# Setup\n\nBack to [intro](../README.md).\n');
    expect(readGitbookConfig(decode(files.get('.gitbook.yaml')!)).readme).toBe('README.md');
    const collided = writeRepository(content, { root: '', redirects: {} }, { p5: 'intro.md' }).paths;
    expect([collided.get('p5'), collided.get('p1')]).toEqual(['intro.md', 'intro (1).md']);
  });

  it('reads back what it writes', () => {
    const written = writeRepository(content, { root: '', redirects: {} }).files;
    const { plan } = read([...written].map(([path, bytes]) => ({ path, bytes })));
    expect(shape(plan.pages)).toEqual(shape(content.pages));
    const [intro, guides] = plan.pages;
    const two = plan.files.find((file) => decode(file.bytes) === 'two')!;
    expect(intro.markdown).toBe(`See [setup](/pages/${guides.pages[0].id}#install) and ![a](/files/${two.id}).\n`);
    expect(plan.files.map((file) => [file.name, decode(file.bytes)]).sort()).toEqual([['shot (1).png', 'two'], ['shot.png', 'one']]);
  });
});
