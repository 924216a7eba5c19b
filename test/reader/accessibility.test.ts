import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available, CHROMIUM, LAUNCH, launchChromium } from '../chromium.js';
import { serve, type RunningServer } from '../../src/adapters/node-http/index.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { BLOCKS_BODY } from '../content/blocks-body.js';

/**
 * The reader's accessibility and layout in headless Chromium: axe-core (its source evaluated in each page)
 * finds no serious or critical violation on any page type (home, a deep page, code in several languages, a
 * computed OpenAPI page, GitBook's blocks, search results, the 404, a visitor-auth site's 401, an Arabic page) in light and
 * dark mode, at phone (390×844) and desktop (1440×900) widths. On a phone the page's title comes first and
 * the menu button shows the page tree; on a desktop the outline follows the reader's position; a
 * right-to-left page has its tree on the right. Screenshots of every page go to a temporary folder, named
 * on the console.
 */

const TEST = 120_000;
const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1.0.0', description: 'Pets and their owners.' },
  paths: {
    '/pets': {
      get: { summary: 'List pets', tags: ['pets'], parameters: [{ name: 'limit', in: 'query', description: 'How many to list, at most.', schema: { type: 'integer', maximum: 100 } }], responses: { '200': { description: 'The pets.', content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } } } } },
      post: { summary: 'Add a pet', tags: ['pets'], requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { '201': { description: 'Added.' } } },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'What it answers to.' }, species: { type: 'string', enum: ['cat', 'dog'] } } } } },
};

const CODE = [
  '## JavaScript\n\n```js\n// Brew a pot.\nconst pot = await brew({ cups: 4, tea: "assam" });\n```',
  '## Python\n\n```python\ndef brew(cups: int = 4) -> str:\n    """Brew a pot."""\n    return f"{cups} cups"\n```',
  '## Go\n\n```go\nfunc Brew(cups int) string {\n\treturn fmt.Sprintf("%d cups", cups) // a pot\n}\n```',
  '## Shell\n\n```bash\nexport TEA=assam\ncurl -s "https://tea.example/brew?cups=4" | jq .\n```',
  '## JSON\n\n```json\n{ "cups": 4, "tea": "assam", "milk": false, "sugar": null }\n```',
  '## YAML\n\n```yaml\ncups: 4\ntea: assam # the best\n```',
  '## SQL\n\n```sql\nSELECT name, count(*) FROM pots WHERE tea = \'assam\' GROUP BY name;\n```',
  '## Diff\n\n```diff\n- cups: 2\n+ cups: 4\n```',
  '## A wide table\n\n| Option | Type | Default | What it does |\n| --- | --- | --- | --- |\n| `cups` | integer | 4 | How many cups the pot holds, from one to twelve, as the kettle allows |\n| `tea` | string | assam | Which tea, by its name in the tea cupboard, lower case |\n',
].join('\n\n');

const ARABIC = 'مرحبا بكم في **الدليل**.\n\n1. افتح التطبيق\n2. اختر الشاي\n\n> اقتباس من الدليل.\n\n| الاسم | القيمة |\n| --- | --- |\n| أكواب | ٤ |\n\n## التثبيت\n\nثبّت البرنامج.\n';

async function fill(api: Api, spaceId: string, changes: Record<string, unknown>[]): Promise<void> {
  const request = await api.createChangeRequest({ spaceId });
  await api.updateChangeRequestContent({ spaceId, changeRequestId: request.id, changes } as never);
  await api.mergeChangeRequest({ spaceId, changeRequestId: request.id } as never);
}

const page = (title: string, markdown: string, extra: Record<string, unknown> = {}) => ({ operation: 'insert_page', title, document: { markdown }, ...extra });

/** An axe violation, as the test reports it. */
interface Violation {
  readonly id: string;
  readonly impact: string;
  readonly nodes: number;
  readonly target: string;
}

const title = available ? 'the reader in Chromium with axe-core' : `the reader in Chromium with axe-core (skipped: no ${CHROMIUM}; apt-get install -y chromium)`;

describe.skipIf(!available)(title, () => {
  let platform: Platform;
  let server: RunningServer;
  let browser: Browser;
  let folder: string;
  /** The URL of each page type. */
  const urls: Record<string, string> = {};
  /** The serious and critical violations found, by mode, width and page type. */
  const found: Record<string, Violation[]> = {};

  beforeAll(async () => {
    platform = createPlatform({ store: createMemoryStore(), signingKey: 'axe-test' });
    server = await serve({ platform, port: 0 });
    const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
    const api = platform.as(init.userId);
    const organizationId = init.organizationId;
    const published = (url: string) => `${server.url}${new URL(url).pathname}${new URL(url).search}`;
    await api.createOpenAPISpec({ organizationId, slug: 'pets', source: { text: JSON.stringify(SPEC) } } as never);
    await platform.settle();

    const guide = await api.createSpace({ organizationId, title: 'Guide' });
    await api.updateSpace({ spaceId: guide.id, visibility: 'public' } as never);
    await fill(api, guide.id, [
      page('Welcome', 'Welcome to **Acme**. Start with [installing](#install) it.\n\n## Install\n\nPut the kettle on.\n\n## Options\n\nPick a tea.\n', { emoji: '👋', description: 'What Acme is and how to start' }),
      { operation: 'insert_page', type: 'group', ref: 'guides', title: 'Guides' },
      page('Install', 'Install it.\n', { ref: 'install', into: 'guides' }),
      page('On Linux', 'Use your package manager.\n', { ref: 'linux', into: 'install' }),
      page('Debian', `Use apt.\n\n${'## Step\n\nA paragraph of text about this step, long enough to scroll.\n\n'.repeat(6)}## Last step\n\nDone.\n`, { into: 'linux' }),
      page('Code', CODE),
      page('Blocks', BLOCKS_BODY),
      { operation: 'insert_page', type: 'computed', title: 'API', computed: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: {} } },
    ]);
    const site = await api.createSite({ organizationId, title: 'Acme Handbook', spaces: [guide.id] } as never);
    await api.publishSite({ organizationId, siteId: site.id });
    const home = published((await api.getSite({ organizationId, siteId: site.id })).urls.published!);
    urls.home = home;
    urls.deep = `${home}/guides/install/on-linux/debian`;
    urls.code = `${home}/code`;
    urls.blocks = `${home}/blocks`;
    urls.api = `${home}/api`;
    urls.search = `${home}/~search?q=kettle`;
    urls.notFound = `${home}/nowhere`;

    const arabic = await api.createSpace({ organizationId, title: 'الدليل' });
    await api.updateSpace({ spaceId: arabic.id, visibility: 'public', language: 'ar' } as never);
    await fill(api, arabic.id, [page('مرحبا', ARABIC), page('التثبيت', 'ثبّت البرنامج.\n')]);
    const arabicSite = await api.createSite({ organizationId, title: 'دليل أكمي', spaces: [arabic.id] } as never);
    await api.publishSite({ organizationId, siteId: arabicSite.id });
    urls.rtl = published((await api.getSite({ organizationId, siteId: arabicSite.id })).urls.published!);

    const guarded = await api.createSite({ organizationId, title: 'Partners', spaces: [guide.id], visibility: 'visitor-auth' } as never);
    await api.publishSite({ organizationId, siteId: guarded.id });
    urls.unauthorized = published((await api.getSite({ organizationId, siteId: guarded.id })).urls.published!);

    folder = await mkdtemp(join(tmpdir(), 'reader-axe-'));
    console.log(`reader screenshots: ${folder}`);
    browser = await launchChromium();
  }, LAUNCH + 30_000);

  afterAll(async () => {
    console.log(`axe serious and critical violations: ${JSON.stringify(Object.fromEntries(Object.entries(found).map(([key, list]) => [key, list.length])))}`);
    await browser?.close();
    await server?.close();
    await platform?.close();
  });

  /** The serious and critical violations axe finds on the page. */
  async function violations(tab: Page): Promise<Violation[]> {
    await tab.evaluate(AXE);
    const results = await tab.evaluate(() => (window as unknown as { axe: { run: (options: object) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe.run({ resultTypes: ['violations'] }));
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length, target: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ') }));
  }

  for (const scheme of ['light', 'dark'] as const) {
    for (const [width, height, name] of [[390, 844, 'phone'], [1440, 900, 'desktop']] as const) {
      it(
        `finds no serious or critical violation on any page type, ${scheme}, ${name}`,
        async () => {
          const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
          const tab = await context.newPage();
          tab.setDefaultTimeout(20_000);
          const expected: Record<string, number> = { notFound: 404, unauthorized: 401 };
          for (const [type, url] of Object.entries(urls)) {
            const response = await tab.goto(url);
            expect(response?.status(), type).toBe(expected[type] ?? 200);
            const key = `${scheme} ${name} ${type}`;
            found[key] = await violations(tab);
            await tab.screenshot({ path: join(folder, `${scheme}-${name}-${type}.png`), fullPage: true });
            // No page is wider than the screen: tables and code scroll in their own boxes.
            expect(await tab.evaluate(() => document.documentElement.scrollWidth), key).toBeLessThanOrEqual(width);
          }
          const failing = Object.entries(found).filter(([key, list]) => key.startsWith(`${scheme} ${name}`) && list.length > 0);
          expect(failing).toEqual([]);
          await context.close();
        },
        TEST,
      );
    }
  }

  it(
    'puts the title first on a phone, and shows the page tree behind the menu button',
    async () => {
      const tab = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await tab.goto(urls.deep);
      expect((await tab.locator('h1.page-title').boundingBox())!.y).toBeLessThan(300);
      expect(await tab.locator('aside.tree').isVisible()).toBe(false);
      await tab.locator('label.menu-button').click();
      expect(await tab.locator('aside.tree').isVisible()).toBe(true);
      await tab.locator('aside.tree a', { hasText: 'Code' }).click();
      expect(await tab.locator('h1.page-title').textContent()).toBe('Code');
      // The keyboard reaches the menu right after the skip link, and Space opens it.
      await tab.goto(urls.deep);
      await tab.keyboard.press('Tab');
      expect(await tab.evaluate(() => document.activeElement?.className)).toBe('skip-link');
      await tab.keyboard.press('Tab');
      expect(await tab.evaluate(() => document.activeElement?.id)).toBe('menu-toggle');
      await tab.keyboard.press('Space');
      expect(await tab.locator('aside.tree').isVisible()).toBe(true);
      await tab.close();
    },
    TEST,
  );

  it(
    'keeps the header and tree in view, and the outline follows the position, on a desktop; mirrors right to left',
    async () => {
      const tab = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await tab.goto(urls.deep);
      const current = () => tab.locator('aside.outline a[aria-current]').textContent();
      expect(await current()).toBe('Step');
      await tab.locator('#last-step').scrollIntoViewIfNeeded();
      await tab.mouse.wheel(0, 10_000);
      await tab.waitForFunction(() => document.querySelector('aside.outline a[aria-current]')?.textContent === 'Last step');
      expect((await tab.locator('header.site').boundingBox())!.y).toBe(0);
      expect((await tab.locator('aside.tree').boundingBox())!.y).toBeGreaterThanOrEqual(0);
      await tab.goto(urls.rtl);
      expect(await tab.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
      const tree = (await tab.locator('aside.tree').boundingBox())!;
      const main = (await tab.locator('main').boundingBox())!;
      expect(tree.x).toBeGreaterThan(main.x);
      await tab.close();
    },
    TEST,
  );
});
