import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, CHROMIUM, LAUNCH, launchChromium, OUTPUT, ROOT } from '../chromium.js';
import { serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * A published site in a real browser: headless Chromium (Debian's package, which .ci/run installs) driven by
 * playwright-core opens a site with two sections and two site spaces on a server started on port 0, clicks
 * through the page tree, the next link and the tabs, switches the variant, runs an instant search and the
 * results page, and opens a share-link site without and with its key (then by its cookie). No request
 * leaves the server, no script fails, and the CSP refuses nothing. It saves screenshots at desktop and
 * phone widths under test-output/; with UPDATE_DOCS_SCREENSHOT=1 it also refreshes docs/reader.png for docs/published-sites.md.
 */

// Bounded: launching may take LAUNCH, the test TEST, so the file ends within a minute even when it fails.
const TEST = 40_000;

/** Fills a space with pages through a merged change request. */
async function fill(api: Api, spaceId: string, changes: Record<string, unknown>[]): Promise<void> {
  const request = await api.createChangeRequest({ spaceId });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: request.id, changes } as never);
  await api.mergeChangeRequest({ spaceId, changeRequestId: request.id } as never);
}

async function publicSpace(api: Api, organizationId: string, title: string, changes: Record<string, unknown>[]): Promise<string> {
  const space = await api.createSpace({ organizationId, title });
  await api.updateSpace({ spaceId: space.id, visibility: 'public' } as never);
  await fill(api, space.id, changes);
  return space.id;
}

const page = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({ operation: 'insert_page', title, document: { markdown }, ...extra });

const title = available ? 'a published site in Chromium' : `a published site in Chromium (skipped: no ${CHROMIUM}; apt-get install -y chromium)`;

describe.skipIf(!available)(title, () => {
  let platform: Platform;
  let server: RunningServer;
  let browser: Browser;
  let siteUrl: string;
  let sharedUrl: string;
  let shareKey: string;

  beforeAll(async () => {
    platform = createPlatform({ store: createMemoryStore(), signingKey: 'browser-test' });
    server = await serve({ platform, port: 0 });
    const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
    const api = platform.as(init.userId);
    const organizationId = init.organizationId;
    const origin = server.url;
    // Library calls build URLs for their own base: read the published ones through this server's origin.
    const published = (url: string) => `${origin}${new URL(url).pathname}${new URL(url).search}`;
    const v1 = await publicSpace(api, organizationId, 'Version 1', [
      page('Welcome', 'Welcome to **Acme**. Start with [installing](#install) it.\n\n## Install\n\n```js\nimport { acme } from \'acme\';\n\n// Brew a pot for four.\nconst pot = await acme.brew({ cups: 4, tea: \'assam\' });\n```\n\n## Options\n\n| Option | Default |\n| --- | --- |\n| `color` | `blue` |\n\n- [x] Kettle\n- [ ] Milk\n', { emoji: '👋', ref: 'welcome', description: 'What Acme is and how to start' }),
      page('Install', 'Put the kettle on, then install.\n', { ref: 'install' }),
      page('On Linux', 'Use your package manager.\n', { into: 'install' }),
      page('Configure', 'Set the options.\n\n- [x] color\n- [ ] size\n'),
    ]);
    const v2 = await publicSpace(api, organizationId, 'Version 2', [page('Welcome to v2', 'The second version.\n')]);
    const reference = await publicSpace(api, organizationId, 'API', [page('Reference', 'Every endpoint.\n')]);
    const site = await api.createSite({ organizationId, title: 'Acme Handbook' } as never);
    const guides = await api.addSectionToSite({ organizationId, siteId: site.id, spaceId: v1, title: 'Guides' } as never);
    await api.addSpaceToSite({ organizationId, siteId: site.id, spaceId: v2, sectionId: guides.id } as never);
    await api.addSectionToSite({ organizationId, siteId: site.id, spaceId: reference, title: 'API' } as never);
    await api.publishSite({ organizationId, siteId: site.id });
    siteUrl = published((await api.getSite({ organizationId, siteId: site.id })).urls.published!);

    const secret = await publicSpace(api, organizationId, 'Internal', [page('Internal notes', 'For partners only.\n')]);
    const shared = await api.createSite({ organizationId, title: 'Partner docs', spaces: [secret], visibility: 'share-link' } as never);
    await api.publishSite({ organizationId, siteId: shared.id });
    sharedUrl = published((await api.getSite({ organizationId, siteId: shared.id })).urls.published!);
    const link = await api.createSiteShareLink({ organizationId, siteId: shared.id, name: 'Partners' });
    shareKey = new URL(link.urls.published!).searchParams.get('share')!;

    browser = await launchChromium();
  }, LAUNCH + 10_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await platform?.close();
  });

  /** A new page that records requests to other servers, script errors and CSP refusals. */
  async function open(width: number, height: number): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width, height } });
    page.setDefaultTimeout(10_000);
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url)) problems.push(`request to ${request.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/404|401/.test(message.text())) problems.push(`console: ${message.text()}`);
    });
    return { page, problems };
  }

  const heading = (page: Page) => page.locator('h1.page-title').textContent();

  it(
    'clicks through the tree, the next link and the tabs, switches the variant and searches',
    async () => {
      const { page, problems } = await open(1280, 900);
      await page.goto(siteUrl);
      expect(await heading(page)).toContain('Welcome');
      await page.locator('aside.tree a', { hasText: 'Install' }).click();
      expect(await heading(page)).toBe('Install');
      // The current page's subpages unfold in the tree.
      await page.locator('aside.tree a', { hasText: 'On Linux' }).click();
      expect(await heading(page)).toBe('On Linux');
      await page.locator('nav.pagination a.next').click();
      expect(await heading(page)).toBe('Configure');
      await page.locator('nav.tabs a', { hasText: 'API' }).click();
      expect(await heading(page)).toBe('Reference');
      await page.locator('nav.tabs a', { hasText: 'Guides' }).click();
      // A menu closes when one clicks elsewhere.
      await page.locator('details.variants summary').click();
      expect(await page.locator('details.variants[open]').count()).toBe(1);
      await page.locator('h1.page-title').click();
      expect(await page.locator('details.variants[open]').count()).toBe(0);
      await page.locator('details.variants summary').click();
      await page.locator('details.variants a', { hasText: 'Version 2' }).click();
      expect(await heading(page)).toBe('Welcome to v2');
      await page.goBack();
      expect(await heading(page)).toContain('Welcome');

      // Instant search shows results as one types; Enter opens the results page, which works without script too.
      await page.locator('form.search input').fill('kettle');
      await page.locator('#instant a', { hasText: 'Install' }).first().waitFor();
      await page.locator('form.search input').press('Enter');
      await page.waitForURL(/~search\?q=kettle/);
      expect(await page.locator('.results a', { hasText: 'Install' }).count()).toBeGreaterThan(0);

      await mkdir(OUTPUT, { recursive: true });
      await page.goto(siteUrl);
      await page.screenshot({ path: join(OUTPUT, 'reader-desktop.png') });
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1') await page.screenshot({ path: join(ROOT, 'docs/reader.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: join(OUTPUT, 'reader-phone.png'), fullPage: true });
      // On a phone the page is no wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST,
  );

  it(
    'opens a share-link site only with its key, then by its cookie',
    async () => {
      const { page, problems } = await open(1280, 900);
      expect((await page.goto(sharedUrl))?.status()).toBe(404);
      expect((await page.goto(`${sharedUrl}?share=${shareKey}`))?.status()).toBe(200);
      expect(await heading(page)).toBe('Internal notes');
      expect((await page.goto(sharedUrl))?.status()).toBe(200);
      expect(problems).toEqual([]);
      await page.close();
    },
    TEST,
  );
});
