import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import type { Api } from '../../src/core/platform.js';
import { withReaderPlatform } from './reader-platform.js';
import { runs } from './runs.js';

/**
 * The reader's URL scheme when paths collide (core/sites/urls.ts): sections, site spaces (variants), page
 * groups and pages take their paths and slugs from a handful of words, so that a page's path often begins
 * with a section's or a site space's path, and the reader's own names are asked for too (and refused).
 * Crawling every link from the URL of the site, of every section and of every site space, every link must
 * answer 200 (no redirect) with the page it names, every page of every tree must be reached, and every
 * sitemap entry must answer 200 with one of them.
 */

const NUM_RUNS = runs(40);

/** The paths and slugs asked for: a few words, and the reader's own names (which are refused). */
const WORDS = ['guides', 'api', 'v2', 'docs', 'sitemap.xml', '~search', 'llms.txt', 'intro.md'] as const;
const word = fc.constantFrom(...WORDS);

/** A page: a document or (top level only) a group, with the slug it asks for, and subpages. */
interface PageSpec {
  readonly group: boolean;
  readonly slug: string;
  readonly pages: readonly PageSpec[];
}

const leaf = fc.record({ group: fc.constant(false), slug: word, pages: fc.constant([]) });
const child = fc.record({ group: fc.constant(false), slug: word, pages: fc.array(leaf, { maxLength: 2 }) });
const topLevel = fc.record({ group: fc.boolean(), slug: word, pages: fc.array(child, { maxLength: 2 }) });
/** A space's tree: a first document, so that its site space's URL shows a page, then anything. */
const tree = fc.tuple(word, fc.array(topLevel, { maxLength: 3 })).map(([slug, rest]): PageSpec[] => [{ group: false, slug, pages: [] }, ...rest]);

/** A site space: the path it asks for, and its space's tree. */
const siteSpace = fc.record({ path: word, pages: tree });
/** A site: site spaces at its root (no sections), or sections each with the path they ask for and one to three site spaces. */
const siteShape = fc.oneof(
  fc.record({ sections: fc.constant(null), siteSpaces: fc.array(siteSpace, { minLength: 1, maxLength: 3 }) }),
  fc.record({ sections: fc.array(fc.record({ path: word, siteSpaces: fc.array(siteSpace, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 3 }), siteSpaces: fc.constant([]) }),
);

const isReserved = (name: string) => name.startsWith('~') || /\.(xml|txt|md)$/.test(name);

let titles = 0;
let crawled = 0;
let sitemapEntries = 0;

/** Asks for a path; a reserved name must be refused (400), one a sibling has is a conflict (409), and either leaves the path as it was. */
async function ask(change: () => Promise<unknown>, name: string): Promise<void> {
  try {
    await change();
    expect(isReserved(name), `${name} was accepted`).toBe(false);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status, `${name}: ${error.message}`).toBe(isReserved(name) ? 400 : 409);
  }
}

/** Fills a space through a merged change request: unique titles, the slugs asked for where they are free and allowed. */
async function fill(api: Api, spaceId: string, pages: readonly PageSpec[]): Promise<Map<string, string>> {
  const changes: Record<string, unknown>[] = [];
  const documents = new Map<string, string>();
  const add = (specs: readonly PageSpec[], into?: string) => {
    const used = new Set<string>();
    for (const spec of specs) {
      const ref = `p${++titles}`;
      const title = `Page ${titles}`;
      const slug = !isReserved(spec.slug) && !used.has(spec.slug) ? spec.slug : undefined;
      if (slug !== undefined) used.add(slug);
      changes.push({
        operation: 'insert_page',
        ref,
        title,
        ...(slug !== undefined && { slug }),
        ...(into !== undefined && { into }),
        ...(spec.group ? { type: 'group' } : { document: { markdown: `Body of ${title}.\n` } }),
      });
      if (!spec.group) documents.set(ref, title);
      add(spec.pages, ref);
    }
  };
  add(pages);
  const request = await api.createChangeRequest({ spaceId });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: request.id, changes } as never);
  await api.mergeChangeRequest({ spaceId, changeRequestId: request.id } as never);
  return documents;
}

/** The links of a document (without fragments) with their text. */
const linksOf = (html: string) =>
  [...html.matchAll(/<a [^>]*href="([^"#]*)[^"]*"[^>]*>([^<]*)<\/a>/g)].map((match) => ({ href: match[1].replace(/&amp;/g, '&'), text: match[2] }));
const headingOf = (html: string) => /<h1 class="page-title">([\s\S]*?)<\/h1>/.exec(html)?.[1];

describe('the reader links every page where it opens when paths collide', () => {
  afterAll(() => {
    // The size of the crawl, for the record (docs/published-sites.md quotes a run of it).
    console.info(`reader-colliding-slugs: ${crawled} links crawled and ${sitemapEntries} sitemap entries read in ${NUM_RUNS} sites`);
  });

  it('answers every link of every section and variant with the page it names, and every sitemap entry', async () => {
    await fc.assert(
      fc.asyncProperty(siteShape, async (shape) => {
        await withReaderPlatform(async ({ api, organizationId, handle }) => {
          const expected = new Set<string>();
          /** A public space named after the path its site space asks for (so that its site space's path often is that word). */
          const spaceOf = async (spec: { path: string; pages: readonly PageSpec[] }) => {
            const space = await api.createSpace({ organizationId, title: spec.path });
            await api.updateSpace({ spaceId: space.id, visibility: 'public' } as never);
            for (const title of (await fill(api, space.id, spec.pages)).values()) expected.add(title);
            return space.id;
          };
          const site = await api.createSite({ organizationId, title: 'Docs' } as never);
          const siteId = site.id;
          const addSiteSpace = async (spec: { path: string; pages: readonly PageSpec[] }, sectionId?: string) => {
            const added = (await api.addSpaceToSite({ organizationId, siteId, spaceId: await spaceOf(spec), ...(sectionId && { sectionId }) } as never)) as { id: string };
            await ask(() => api.updateSiteSpace({ organizationId, siteId, siteSpaceId: added.id, path: spec.path } as never), spec.path);
          };
          if (shape.sections === null) for (const spec of shape.siteSpaces) await addSiteSpace(spec);
          for (const [at, section] of (shape.sections ?? []).entries()) {
            const [first, ...rest] = section.siteSpaces;
            const added = (await api.addSectionToSite({ organizationId, siteId, spaceId: await spaceOf(first), title: `Section ${at}` } as never)) as any;
            await ask(() => api.updateSiteSpace({ organizationId, siteId, siteSpaceId: added.siteSpaces[0].id, path: first.path } as never), first.path);
            await ask(() => api.updateSiteSection({ organizationId, siteId, siteSectionId: added.id, path: section.path } as never), section.path);
            for (const spec of rest) await addSiteSpace(spec, added.id);
          }
          await api.publishSite({ organizationId, siteId });
          const published = (await api.getPublishedContentSite({ organizationId, siteId })) as any;
          const base: string = published.site.urls.published;
          const sections = published.structure.type === 'sections' ? published.structure.structure : [];
          const starts = [
            base,
            ...sections.map((section: any) => section.urls.published),
            ...(published.structure.type === 'sections' ? sections.flatMap((section: any) => section.siteSpaces) : published.structure.structure).map((item: any) => item.urls.published),
          ];

          const read = async (url: string) => {
            const response = await handle(new Request(url));
            return { status: response.status, location: response.headers.get('location'), text: await response.text() };
          };
          const reached = new Map<string, string | undefined>();
          const queue = [...new Set(starts)];
          const seen = new Set(queue);
          while (queue.length > 0) {
            const url = queue.shift()!;
            const answer = await read(url);
            crawled++;
            expect([answer.status, answer.location], url).toEqual([200, null]);
            const heading = headingOf(answer.text);
            reached.set(url, heading);
            for (const link of linksOf(answer.text)) {
              if ((!link.href.startsWith(`${base}/`) && link.href !== base) || link.href.includes('/~search')) continue;
              if (/^Page \d+$/.test(link.text)) {
                // A link to a page leads to that page (a link seen before was read then).
                const known = reached.get(link.href);
                if (known !== undefined) expect(known, link.href).toBe(link.text);
                else if (!seen.has(link.href)) {
                  const target = await read(link.href);
                  crawled++;
                  expect([target.status, headingOf(target.text)], link.href).toEqual([200, link.text]);
                  reached.set(link.href, link.text);
                }
              }
              if (seen.has(link.href)) continue;
              seen.add(link.href);
              queue.push(link.href);
            }
          }
          expect(new Set(reached.values())).toEqual(expected);

          const sitemap = await read(`${base}/sitemap.xml`);
          expect(sitemap.status).toBe(200);
          const entries = [...sitemap.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1].replace(/&amp;/g, '&'));
          const titlesOfEntries = new Set<string | undefined>();
          for (const entry of entries) {
            const answer = await read(entry);
            sitemapEntries++;
            expect(answer.status, entry).toBe(200);
            titlesOfEntries.add(headingOf(answer.text));
          }
          expect(titlesOfEntries).toEqual(expected);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }, 240_000);
});
