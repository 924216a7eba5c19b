import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

/**
 * The README and the guides in docs/ are a newcomer's way in: every relative link must lead somewhere in the
 * repository (a file, and the heading its `#anchor` names), and no text may send the reader outside it.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The anchors GitHub gives the headings of a Markdown file. */
function anchorsOf(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const headings = prose(readFileSync(path, 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((heading) => slugger.slug(heading.replace(/^#+ /, '').replace(/[`*_]/g, ''))));
}

/** Every inline link or image target of a document: `[text](target)`. */
function targetsOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

describe('README.md and docs/', () => {
  it('has a README a newcomer reads in a few screens', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every relative link resolves inside the repository`, () => {
      const text = readFileSync(join(ROOT, document), 'utf8');
      const problems: string[] = [];
      for (const target of targetsOf(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
        const [file, anchor] = target.split('#');
        const path = file === '' ? join(ROOT, document) : resolve(dirname(join(ROOT, document)), decodeURIComponent(file));
        if (relative(ROOT, path).startsWith('..')) problems.push(`${target}: outside the repository`);
        else if (!existsSync(path)) problems.push(`${target}: no such file`);
        else if (anchor && path.endsWith('.md') && !anchorsOf(path).has(anchor)) problems.push(`${target}: no heading #${anchor}`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('names no path outside the repository', () => {
    const problems = DOCUMENTS.filter((document) => /(^|[\s`(])\.\.\/shared\b|\bshared\/seeds\b/.test(readFileSync(join(ROOT, document), 'utf8')));
    expect(problems).toEqual([]);
  });
});
