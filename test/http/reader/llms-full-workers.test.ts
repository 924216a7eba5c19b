import { afterEach, beforeEach, expect, it } from 'vitest';
import { PAGES_PER_PART } from '../../../src/core/sites/reader/llms-full.js';
import { TABLES } from '../../../src/core/records.js';
import { createMemoryStore } from '../../../src/store/memory.js';
import type { ReadTransaction } from '../../../src/store/types.js';
import { createHarness, httpSuite, type Harness } from '../harness.js';
import { threadLikeWorkers } from '../thread-like-workers.js';
import { readerHelpers } from './reader-helpers.js';

/**
 * The Markdown work of a part of llms-full.txt (its pages' outlines, and where their URLs are written) goes
 * through the platform's workers port as one job per part (read-bodies-job.ts), however short its pages: run
 * here through a port that does what the pool does to a job, the file is the one a platform that runs jobs
 * in-process (the default) makes of the same site, links rewritten to the same `.md` URLs.
 */

const { workers, ran } = threadLikeWorkers();
beforeEach(() => {
  ran.length = 0;
});

/** Two parts of short pages; one links out. */
const PAGES = Array.from({ length: PAGES_PER_PART + 3 }, (_, n) => ({
  title: `Page ${n}`,
  document: { markdown: n === 1 ? 'Read [the spec](https://example.com/spec) too.\n' : `## Part\n\nBody ${n}.\n` },
}));

/** A last page, written once the others are there, links them (one with an anchor, one by a link definition). */
const LINKS = { operation: 'insert_page', title: 'Links', document: { markdown: 'See [page 2](/pages/page-2), [its part](/pages/page-2#part) and [the first][first].\n\n[first]: /pages/page-0\n' } };

/** The site of PAGES and LINKS, published through a harness. */
async function site(harness: () => Harness) {
  const r = readerHelpers(harness);
  const published = await r.publishedSite(PAGES);
  await r.write(published.space, [LINKS]);
  return published;
}

/** A memory store that counts the reads of each page body (content documents), by id. */
function countingBodyReads() {
  const store = createMemoryStore();
  const reads = new Map<string, number>();
  const read = store.read.bind(store);
  const counted = (tx: ReadTransaction) =>
    new Proxy(tx, {
      get(target, property) {
        if (property === 'get') {
          return (table: string, id: string) => {
            if (table === TABLES.contentDocuments) reads.set(id, (reads.get(id) ?? 0) + 1);
            return target.get(table, id);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  store.read = (fn) => read((tx) => fn(counted(tx)));
  return { store, reads };
}

it('reads each page body from the store once for llms-full.txt', async () => {
  const { store, reads } = countingBodyReads();
  const harness = await createHarness('fetch', { store });
  try {
    const made = await site(() => harness);
    reads.clear();
    const text = await (await harness.send(`${new URL(made.url).pathname}/llms-full.txt`)).text();
    expect(text).toContain(`# Page ${PAGES_PER_PART + 2}\n`);
    // Every page of the file was read, each once (the part's job read it; the page's Markdown takes that text).
    expect(reads.size).toBe(PAGES.length + 1);
    expect([...new Set(reads.values())]).toEqual([1]);
  } finally {
    await harness.close();
  }
});

httpSuite(
  'reader llms-full.txt: one job per part through the workers port',
  (h) => {
    let inline: Harness;
    beforeEach(async () => {
      // On a store of its own: a second harness on the test store would empty the PostgreSQL schema under h().
      inline = await createHarness(h().transport, { store: createMemoryStore() });
    });
    afterEach(async () => {
      await inline.close();
    });

    it('reads each part in one job and makes the file a platform without workers makes', async () => {
      const made = await site(h);
      ran.length = 0;
      const text = await (await h().send(`${new URL(made.url).pathname}/llms-full.txt`)).text();
      expect(ran).toEqual(['markdown-read-bodies', 'markdown-read-bodies']);
      expect(text).toContain(`# Links\n\nSee [page 2](${made.url}/page-2.md), [its part](${made.url}/page-2.md#part) and [the first][first].\n\n[first]: ${made.url}/page-0.md\n`);
      expect(text).toContain('Read [the spec](https://example.com/spec) too.\n');
      expect(text).toContain(`# Page ${PAGES_PER_PART + 2}\n\n## Part\n\nBody ${PAGES_PER_PART + 2}.\n`);

      const other = await site(() => inline);
      const expected = await (await inline.send(`${new URL(other.url).pathname}/llms-full.txt`)).text();
      expect(text).toBe(expected.replaceAll(other.url, made.url));
    });
  },
  { workers },
);
