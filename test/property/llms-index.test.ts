import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withReaderPlatform } from './reader-platform.js';
import { runs } from './runs.js';
import { publishedSiteOf, siteShape, tree } from './site-trees.js';

/**
 * llms.txt against the API, for random sites: every readable page of every site space (as the API lists the
 * space's tree, hidden pages included, groups not) appears exactly once in the site's llms.txt, as a link to
 * its URL plus `.md`, and that URL answers 200 with the page's Markdown, titled as the page.
 */

const NUM_RUNS = runs(25);

/** The readable pages of a space's tree as the API lists them, depth first, hidden ones included. */
function readablePages(pages: readonly any[]): any[] {
  return pages.flatMap((page) => [...(page.type === 'document' ? [page] : []), ...readablePages(page.pages ?? [])]);
}

describe('llms.txt lists every page of a site once', () => {
  it('links each readable page of every site space exactly once, to a .md URL that answers its Markdown', async () => {
    await fc.assert(
      fc.asyncProperty(siteShape, fc.array(tree, { minLength: 6, maxLength: 6 }), async (shape, trees) => {
        await withReaderPlatform(async ({ api, organizationId, handle }) => {
          const siteId = await publishedSiteOf(api, organizationId, shape, trees);
          const published = await api.getPublishedContentSite({ organizationId, siteId });
          const siteSpaces: any[] =
            published.structure.type === 'siteSpaces'
              ? published.structure.structure
              : published.structure.structure.flatMap((entry: any) => (entry.object === 'site-section-group' ? entry.sections : [entry])).flatMap((section: any) => section.siteSpaces);
          const expected = new Map<string, string>();
          for (const siteSpace of siteSpaces) {
            const content = await api.getSpaceContent({ spaceId: siteSpace.space.id } as never);
            for (const page of readablePages(content.pages)) expected.set(`${siteSpace.urls.published}/${page.path}.md`, page.title);
          }
          const index = await handle(new Request(`${published.site.urls.published}/llms.txt`));
          expect(index.status).toBe(200);
          const listed = [...(await index.text()).matchAll(/^- \[([^\]]*)\]\(([^)]+)\)/gm)].map((match) => [match[2], match[1]] as const);
          expect(listed.map(([url]) => url).sort()).toEqual([...expected.keys()].sort());
          for (const [url, title] of listed) {
            expect(title).toBe(expected.get(url));
            const page = await handle(new Request(url));
            expect(page.status, url).toBe(200);
            expect((await page.text()).startsWith(`# ${title}\n`), url).toBe(true);
          }
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
