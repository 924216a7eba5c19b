import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBlobStore } from '../../src/core/blobs.js';
import { manualClock } from '../../src/core/clock.js';
import { createPlatform, type Platform } from '../../src/core/platform.js';
import { TABLES } from '../../src/core/records.js';
import { openTestStore, TEST_STORE } from '../store/test-store.js';

/**
 * The blob collection beyond files: a PDF stays while its URL works and goes once it expired and its grace
 * period is over; an OpenAPI version's document stays; one process at a time collects.
 */

const MINUTE = 60_000;
const GRACE = 10 * MINUTE;

let opened: { platform: Platform; dispose(): Promise<void> }[] = [];
afterEach(async () => {
  for (const { platform, dispose } of opened) {
    await platform.close();
    await dispose();
  }
  opened = [];
});

async function setUp() {
  const clock = manualClock('2026-06-01T00:00:00.000Z');
  const { store, blobs, dispose } = await openTestStore({ now: clock.now });
  const platform = createPlatform({ store, blobs: blobs!, clock, signingKey: 'test-key', blobGraceMs: GRACE });
  opened.push({ platform, dispose });
  const { organizationId, userId } = await platform.initialize({ email: 'owner@acme.test' });
  return { platform, clock, blobs: blobs!, organizationId, api: platform.as(userId) };
}

describe(`the blob collection (${TEST_STORE} store)`, () => {
  it('keeps a PDF while its URL works, then removes it as expired; a new export renders it again', { timeout: 30_000 }, async () => {
    const { platform, clock, api, organizationId } = await setUp();
    const space = await api.createSpace({ organizationId, title: 'Handbook' });
    const cr = await api.createChangeRequest({ spaceId: space.id });
    await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: cr.id, changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'Hello' } }] });
    const { url } = await api.getChangeRequestPDF({ spaceId: space.id, changeRequestId: cr.id });
    const key = JSON.parse(atob(new URL(url).pathname.split('/')[3]!.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/'))).d as string;

    // 59 minutes on: past the grace period, but the URL works for one more minute.
    clock.advance(59 * MINUTE);
    expect((await platform.collectBlobs())!.removed).toEqual([]);
    expect(await platform.store.read((tx) => tx.get(TABLES.blobHolds, key))).toMatchObject({ kind: 'pdf' });

    // Expired: the hold ends, and the bytes, last stored more than the grace period ago, go.
    clock.advance(2 * MINUTE);
    const dry = (await platform.collectBlobs({ dryRun: true }))!;
    expect(dry).toMatchObject({ dryRun: true, endedHolds: 1, removed: [{ key, reason: 'expired' }] });
    const report = (await platform.collectBlobs())!;
    expect(report).toMatchObject({ dryRun: false, endedHolds: 1, removed: [{ key, reason: 'expired' }] });
    expect(report.removedBytes).toBe(report.removed[0]!.size);
    expect(await platform.store.read((tx) => tx.get(TABLES.blobHolds, key))).toBeUndefined();

    // The platform still remembers the PDF's key: it finds the bytes gone and renders them again.
    const again = await api.getChangeRequestPDF({ spaceId: space.id, changeRequestId: cr.id });
    const download = new URL(again.url);
    const [, , , token, name] = download.pathname.split('/');
    const bytes = await api.downloadFile({ token: token!, name: decodeURIComponent(name!) });
    expect(bytes).toBeDefined();
  });

  it('keeps the document of an OpenAPI specification version', async () => {
    const { platform, clock, api, organizationId } = await setUp();
    await api.createOpenAPISpec({ organizationId, slug: 'pets', source: { text: JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} }) } });
    await platform.settle();
    const version = await api.getLatestOpenAPISpecVersion({ organizationId, specSlug: 'pets' });
    expect(version).toBeDefined();
    clock.advance(GRACE + MINUTE);
    expect((await platform.collectBlobs())!.removed).toEqual([]);
    expect(await api.getLatestOpenAPISpecVersionContent({ organizationId, specSlug: 'pets' })).toBeDefined();
  });

  it('runs in one process at a time: of two platforms on one store that collect together, one collects', async () => {
    const { platform, clock, blobs } = await setUp();
    const other = createPlatform({ store: platform.store, blobs, clock, signingKey: 'test-key', blobGraceMs: GRACE });
    await blobs.put(new TextEncoder().encode('orphan'));
    clock.advance(GRACE + MINUTE);
    const reports = await Promise.all([platform.collectBlobs(), other.collectBlobs()]);
    expect(reports.filter((report) => report === null)).toHaveLength(1);
    expect(reports.find((report) => report !== null)!.removed).toHaveLength(1);
    // Released: the next collection runs (and finds nothing more).
    expect((await other.collectBlobs())!.removed).toEqual([]);
  });

  it('a memory blob store given to no store works too: an unreferenced upload goes after its grace period only', async () => {
    const clock = manualClock('2026-06-01T00:00:00.000Z');
    const blobs = createMemoryBlobStore({ now: clock.now });
    const { store, dispose } = await openTestStore();
    const platform = createPlatform({ store, blobs, clock, blobGraceMs: GRACE });
    opened.push({ platform, dispose });
    const key = await blobs.put(new TextEncoder().encode('in flight'));
    clock.advance(GRACE);
    expect((await platform.collectBlobs())!.removed).toEqual([]);
    clock.advance(1);
    expect((await platform.collectBlobs())!.removed).toEqual([{ key, size: 9, storedAt: '2026-06-01T00:00:00.000Z', reason: 'unreferenced' }]);
  });
});
