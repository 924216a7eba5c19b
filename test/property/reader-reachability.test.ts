import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withReaderPlatform } from './reader-platform.js';
import { runs } from './runs.js';
import { publishedSiteOf, siteShape, tree } from './site-trees.js';

/**
 * The reader against the API, for random sites: every `urls.published` the API gives for the site, its
 * sections and its site spaces answers 200 with the first page of the site space it names (by the API's
 * `default` flags), and every page of every site space's tree (as the API lists it, hidden pages left out)
 * is reached from the site's own URL by following the links of the pages, and nothing else.
 */

const NUM_RUNS = runs(25);

/** The visible readable pages of a space's tree as the API lists them, depth first, hidden ones and their subpages left out. */
function visiblePages(pages: readonly any[]): any[] {
  return pages.flatMap((page) => (page.hidden ? [] : [...(page.type === 'document' ? [page] : []), ...visiblePages(page.pages ?? [])]));
}

describe('the reader serves every published URL and links every page', () => {
  it('answers each urls.published with its first page, and reaches every tree page from the site by links alone', async () => {
    await fc.assert(
      fc.asyncProperty(siteShape, fc.array(tree, { minLength: 6, maxLength: 6 }), async (shape, trees) => {
        await withReaderPlatform(async ({ api, organizationId, handle }) => {
          const siteId = await publishedSiteOf(api, organizationId, shape, trees);
          const published = await api.getPublishedContentSite({ organizationId, siteId });

          const read = async (url: string) => {
            const response = await handle(new Request(url));
            return { status: response.status, text: await response.text() };
          };
          const heading = (text: string) => /<h1 class="page-title">([\s\S]*?)<\/h1>/.exec(text)?.[1];

          // Every site space with its URL and its pages; the URL the API gives each place, and the site space it names.
          const siteSpaces: any[] = [];
          const named: [string, any][] = [];
          if (published.structure.type === 'siteSpaces') {
            siteSpaces.push(...published.structure.structure);
            named.push([published.site.urls.published!, siteSpaces.find((item) => item.default)]);
          } else {
            const sections = published.structure.structure.flatMap((entry: any) => (entry.object === 'site-section-group' ? entry.sections : [entry]));
            for (const section of sections) {
              siteSpaces.push(...section.siteSpaces);
              named.push([section.urls.published, section.siteSpaces.find((item: any) => item.default)]);
            }
            named.push([published.site.urls.published!, sections.find((section: any) => section.default).siteSpaces.find((item: any) => item.default)]);
          }
          const expected = new Map<string, string>();
          const firstTitle = new Map<string, string>();
          for (const siteSpace of siteSpaces) {
            named.push([siteSpace.urls.published, siteSpace]);
            const content = await api.getSpaceContent({ spaceId: siteSpace.space.id } as never);
            const pages = visiblePages(content.pages);
            firstTitle.set(siteSpace.id, pages[0].title);
            for (const page of pages) expected.set(`${siteSpace.urls.published}/${page.path}`, page.title);
          }
          for (const [url, siteSpace] of named) {
            const answer = await read(url);
            expect(answer.status, url).toBe(200);
            expect(heading(answer.text)).toBe(firstTitle.get(siteSpace.id));
          }

          // Walk the links of the pages from the site's URL.
          const base = published.site.urls.published!;
          const seen = new Set<string>([base]);
          const queue = [base];
          const reached = new Map<string, string | undefined>();
          while (queue.length > 0) {
            const url = queue.shift()!;
            const answer = await read(url);
            expect(answer.status, url).toBe(200);
            reached.set(url, heading(answer.text));
            for (const match of answer.text.matchAll(/<a [^>]*href="([^"#]*)/g)) {
              const href = match[1].replace(/&amp;/g, '&');
              if (!href.startsWith(`${base}/`) && href !== base) continue;
              if (href.includes('/~search') || seen.has(href)) continue;
              seen.add(href);
              queue.push(href);
            }
          }
          for (const [url, title] of expected) expect(reached.get(url), `${url} is reached`).toBe(title);
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
