import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, CHROMIUM, LAUNCH, launchChromium, OUTPUT, ROOT } from '../chromium.js';
import { serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { createPlatform, type Platform } from '../../src/core/platform.js';
import { routes } from '../../src/core/routes.js';
import { createMemoryStore } from '../../src/store/memory.js';

/**
 * The API reference page in a real browser: headless Chromium (Debian's package, which .ci/run installs)
 * driven by playwright-core opens /docs on a server started on port 0, sees every operation (scrolling
 * through the page), pastes a
 * token into Authorize, sends GET /v1/orgs with "Try it out" and sees a 200. It saves a screenshot under
 * test-output/; with UPDATE_DOCS_SCREENSHOT=1 it also refreshes docs/api-reference.png for docs/api-reference.md.
 */

// Bounded: launching may take LAUNCH, the test TEST, so the file ends within a minute even when it fails.
const TEST = 35_000;

/**
 * The operationIds the page shows, read while scrolling it from top to bottom: Swagger UI renders only
 * the operations near the viewport (a virtualized list), so no one moment has them all in the page.
 */
async function seenOperations(page: Page): Promise<string[]> {
  const seen = new Set<string>();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let step = 0; step < 500; step++) {
    for (const id of await page.locator('.opblock-summary-operation-id').allTextContents()) seen.add(id.trim());
    const moved = await page.evaluate(async () => {
      const before = window.scrollY;
      window.scrollBy(0, window.innerHeight / 2);
      // Two frames: the list measures the new position, then renders the operations now in view.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return window.scrollY !== before;
    });
    if (!moved) break;
  }
  for (const id of await page.locator('.opblock-summary-operation-id').allTextContents()) seen.add(id.trim());
  return [...seen].sort();
}

const title = available ? 'the API reference page in Chromium' : `the API reference page in Chromium (skipped: no ${CHROMIUM}; apt-get install -y chromium)`;

describe.skipIf(!available)(title, () => {
  let platform: Platform;
  let server: RunningServer;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    platform = createPlatform({ store: createMemoryStore(), signingKey: 'browser-test' });
    ({ token } = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' }));
    server = await serve({ platform, port: 0 });
    browser = await launchChromium();
  }, LAUNCH);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await platform?.close();
  });

  it(
    'lists the operations and sends a request with a pasted token',
    async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      page.setDefaultTimeout(15_000);
      const elsewhere: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(server.url)) elsewhere.push(request.url());
      });
      const failures: string[] = [];
      page.on('pageerror', (error) => failures.push(error.message));

      await page.goto(`${server.url}/docs`);
      await page.locator('.opblock').first().waitFor();
      expect(await seenOperations(page)).toEqual(routes.map((route) => route.operation.name).sort());
      await page.evaluate(() => window.scrollTo(0, 0));
      const operation = page.locator('#operations-orgs-listOrganizations');
      await expect(operation.locator('.opblock-summary-path').textContent()).resolves.toBe('/v1/orgs');

      // Without a token the request is refused: the page really talks to the server.
      await operation.locator('.opblock-summary-control').click();
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await expect.poll(() => status.textContent()).toContain('401');

      await page.locator('.auth-wrapper button.authorize').click();
      await page.locator('.modal-ux input').fill(token);
      await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
      await page.locator('.modal-ux button.btn-done').click();

      await operation.locator('button.execute').click();
      await expect.poll(() => status.textContent()).toContain('200');
      const body = await operation.locator('.live-responses-table tr.response .response-col_description .microlight').first().textContent();
      expect(JSON.parse(body ?? '{}')).toMatchObject({ count: 1, items: [{ object: 'organization', title: 'Acme Docs' }] });

      expect(elsewhere).toEqual([]);
      expect(failures).toEqual([]);
      await mkdir(OUTPUT, { recursive: true });
      await operation.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUTPUT, 'api-reference.png') });
      if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
        // Tall enough to show the page's header, the operation and its 200 response together.
        await page.setViewportSize({ width: 1280, height: 1500 });
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: join(ROOT, 'docs/api-reference.png') });
      }
      await page.close();
    },
    TEST,
  );
});
