import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { MAX_PDF_PAGES } from '../../src/core/content/pdf/source.js';
import { createPlatform } from '../../src/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { createWorkerPool, DEFAULT_JOB_MEMORY_MB, DEFAULT_JOB_TIMEOUT_MS } from '../../src/workers/pool.js';
import { extractPdf } from './pdf-extract.js';

/**
 * A space of 2,000 pages (the limit is MAX_PDF_PAGES, 5,000) in several scripts exports within the limits of
 * one job on the worker pool (60 s, 1024 MB of heap: a job past either fails with a 422), with every page,
 * its number and its bookmark.
 */

const PAGES = 2000;

describe('a PDF of a 2,000-page space', () => {
  it('renders within the job limits, every page numbered and bookmarked', { timeout: 120_000 }, async () => {
    expect(PAGES).toBeLessThan(MAX_PDF_PAGES);
    const workers = createWorkerPool({ threads: 1, jobTimeoutMs: DEFAULT_JOB_TIMEOUT_MS, jobMemoryMb: DEFAULT_JOB_MEMORY_MB });
    const platform = createPlatform({ store: createMemoryStore(), workers, clock: manualClock('2026-01-01T00:00:00Z'), signingKey: 'k' });
    try {
      const { organizationId, userId } = await platform.initialize({ email: 'owner@acme.test' });
      const api = platform.as(userId);
      const space = await api.createSpace({ organizationId, title: 'Big' });
      const cr = await api.createChangeRequest({ spaceId: space.id });
      for (let from = 0; from < PAGES; from += 50) {
        const changes = Array.from({ length: 50 }, (_, k) => ({
          operation: 'insert_page' as const,
          title: `Страница ${from + k}`,
          document: { markdown: `Page ${from + k}: ελληνικά, שלום, مرحبا, 日本語, 简体中文, 한국어.` },
        }));
        await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes });
      }
      const { url } = await api.getChangeRequestPDF({ spaceId: space.id, changeRequestId: cr.id });
      const [, , , token, name] = new URL(url).pathname.split('/');
      const download = (await api.downloadFile({ token: token!, name: decodeURIComponent(name!) })) as unknown as { bytes: Uint8Array };
      // The last page only, to keep the test short (reading 2,000 pages takes pdf.js seconds).
      const read = await extractPdf(download.bytes, [PAGES]);
      expect(read.pages).toHaveLength(PAGES);
      expect(read.outline).toHaveLength(PAGES);
      expect(read.outline[PAGES - 1]!.title).toBe(`Страница ${PAGES - 1}`);
      const last = read.pages[PAGES - 1]!;
      expect(last.startsWith(`${PAGES}\nСтраница ${PAGES - 1}\nPage ${PAGES - 1}: ελληνικά,`)).toBe(true);
      for (const word of ['שלום', 'مرحبا', '日本語', '简体中文', '한국어']) expect(last).toContain(word);
    } finally {
      await platform.close();
    }
  });
});
