import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localIds } from '../../src/core/content/import/local-ids.js';
import { pageTitle } from '../../src/core/content/import/page-body.js';
import type { PlannedPage } from '../../src/core/content/import/plan.js';
import { normalizeMarkdown } from '../../src/core/content/markdown.js';
import { slugify, withSuffix } from '../../src/core/content/slugs.js';
import { readRepository } from '../../src/core/git-sync/read-repository.js';
import { writeRepository, type SyncedFile, type SyncedPage } from '../../src/core/git-sync/write-repository.js';
import { runs } from './runs.js';

/**
 * The repository format both ways: random page trees (Unicode titles, titles whose slugs collide, deep
 * nesting, groups, link pages, front matter, bodies with GitBook blocks and links to pages and files) and
 * files, written as a repository and read back, give the same tree, titles, fields, bodies and files. The
 * tree puts groups after the other top-level pages: the summary cannot place a page after a group.
 */

const NUM_RUNS = runs(100);

/** A raw page before ids and paths: bodies name pages and files by number (`@p3`, `@f1`). */
interface RawPage {
  readonly type: 'document' | 'link' | 'group';
  readonly title: string;
  readonly meta: PlannedPage['meta'];
  readonly body: string;
  readonly pages: readonly RawPage[];
}

const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 24 });
/** Titles: any text (cleaned as titles are), or from a pool whose slugs collide. */
const title = fc.oneof(text, fc.constantFrom('Intro', 'intro', 'INTRO!', 'Ünïcode', 'ガイド', 'a # b #', '[x](y)', '*star*', '1. one')).map((raw) => pageTitle([raw]));
const meta = fc.record(
  { description: text.map((value) => value.trim()).filter((value) => value !== ''), icon: fc.constantFrom('rocket', 'book'), hidden: fc.constant(true) },
  { requiredKeys: [] },
);
const bodyPart = fc.oneof(
  text,
  fc.nat().map((n) => `See [that page](/pages/@p${n}#part).`),
  fc.nat().map((n) => `![a picture](/files/@f${n})`),
  fc.constant('{% hint style="warning" %}\nCareful.\n{% endhint %}'),
  fc.constant('{% tabs %}\n{% tab title="One" %}\nFirst.\n{% endtab %}\n{% endtabs %}'),
  fc.constant('## A section\n\n- an item\n  - nested'),
  fc.constant('```js\nconst x = 1;\n```'),
);
const body = fc.array(bodyPart, { maxLength: 4 }).map((parts) => normalizeMarkdown(parts.join('\n\n')));

const link: fc.Arbitrary<RawPage> = fc.record({ type: fc.constant('link' as const), title, meta: fc.constant({}), body: fc.constant(''), pages: fc.constant([]) });
const { document } = fc.letrec<{ document: RawPage }>((tie) => ({
  document: fc.record({
    type: fc.constant('document' as const),
    title,
    meta,
    body,
    pages: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant([]), fc.array(fc.oneof(tie('document'), link), { maxLength: 3 })),
  }),
}));
const group: fc.Arbitrary<RawPage> = fc.record({ type: fc.constant('group' as const), title, meta: fc.constant({}), body: fc.constant(''), pages: fc.array(fc.oneof(document, link), { maxLength: 3 }) });
const tree = fc.tuple(fc.array(fc.oneof(document, link), { minLength: 1, maxLength: 4 }), fc.array(group, { maxLength: 2 })).map(([pages, groups]) => [...pages, ...groups]);
const files = fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-zA-Z0-9 é_-]{1,12}$/), fc.constantFrom('.png', '.pdf', ''), fc.uint8Array({ maxLength: 16 })), {
  maxLength: 4,
  selector: ([stem, extension]) => `${stem.trim()}${extension}`.toLowerCase(),
});

/** Gives a raw tree ids, slugs unique among siblings, and bodies that name real pages and files. */
function build(raw: readonly RawPage[], rawFiles: [string, string, Uint8Array][]): { pages: SyncedPage[]; files: SyncedFile[] } {
  const fileList: SyncedFile[] = rawFiles.map(([stem, extension, bytes], n) => ({ id: `file${n}`, name: `${stem.trim() || 'x'}${extension}`, bytes }));
  let next = 0;
  const documents: string[] = [];
  const withIds = (pages: readonly RawPage[], parent: string): (SyncedPage & { body: string })[] => {
    const slugs = new Set<string>();
    return pages.map((page) => {
      let slug = slugify(page.title);
      for (let n = 2; slugs.has(slug); n++) slug = withSuffix(slugify(page.title), n);
      slugs.add(slug);
      const id = `page${next++}`;
      const path = parent === '' ? slug : `${parent}/${slug}`;
      if (page.type === 'document') documents.push(id);
      const url = page.type === 'link' ? { url: `https://example.test/${encodeURIComponent(page.title)}` } : {};
      return { id, type: page.type, path, title: page.title, meta: page.meta, markdown: '', body: page.body, ...url, pages: withIds(page.pages, path) };
    });
  };
  const named = withIds(raw, '');
  const fill = (pages: readonly (SyncedPage & { body: string })[]): SyncedPage[] =>
    pages.map(({ body: text, ...page }) => {
      const markdown = text
        .replace(/@p(\d+)/g, (_, n: string) => documents[Number(n) % documents.length] ?? 'nowhere')
        .replace(/@f(\d+)/g, (_, n: string) => fileList[Number(n) % Math.max(fileList.length, 1)]?.id ?? 'nothing');
      return { ...page, markdown, pages: fill(page.pages as (SyncedPage & { body: string })[]) };
    });
  return { pages: fill(named), files: fileList };
}

/** Pages in reading order. */
const flat = <T extends { pages: readonly T[] }>(pages: readonly T[]): T[] => pages.flatMap((page) => [page, ...flat(page.pages)]);

describe('the Git Sync repository format', () => {
  it('reads back the tree, titles, fields, bodies and files it writes', () => {
    fc.assert(
      fc.property(tree, files, fc.constantFrom('', 'docs', 'a/b'), (raw, rawFiles, root) => {
        const content = build(raw, rawFiles);
        const written = writeRepository(content, { root, redirects: {} }).files;
        const { plan } = readRepository(localIds().next, [...written].map(([path, bytes]) => ({ path, bytes })), '', 'repo');
        // Ids: pages by reading order, files by name.
        const ids = new Map<string, string>();
        const [before, after] = [flat(content.pages), flat(plan.pages)];
        expect(after.length).toBe(before.length);
        before.forEach((page, n) => ids.set(page.id, after[n].id));
        for (const file of content.files) ids.set(file.id, plan.files.find((read) => read.name === file.name)?.id ?? 'missing');
        const expected = (pages: readonly SyncedPage[]): unknown[] =>
          pages.map((page) => ({
            type: page.type,
            title: page.title,
            meta: page.meta,
            markdown: page.markdown.replace(/(page|file)\d+/g, (id) => ids.get(id) ?? id),
            url: page.url,
            pages: expected(page.pages),
          }));
        const actual = (pages: readonly PlannedPage[]): unknown[] =>
          pages.map((page) => ({ type: page.type, title: page.title, meta: page.meta, markdown: page.markdown, url: page.url, pages: actual(page.pages) }));
        expect(actual(plan.pages)).toEqual(expected(content.pages));
        const byName = (list: readonly { name: string; bytes: Uint8Array }[]) => list.map((file) => [file.name, [...file.bytes]]).sort();
        expect(byName(plan.files)).toEqual(byName(content.files));
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
