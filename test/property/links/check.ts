import { expect } from 'vitest';
import { buildLinksIndex, linksIndexOf } from '../../../src/core/content/links/links-index.js';
import { outlineOf } from '../../../src/core/content/outline.js';
import { loadRevision } from '../../../src/core/content/revision.js';
import { outcome } from '../outcome.js';
import { plainIndex } from '../../content/links-plain.js';
import { describe, statusIn, targetsOf, type Model, type Real, type State } from './model.js';
import { inlineWorkers } from '../../../src/core/inline-workers.js';

/** An API link entry as `[target, status, locations]`. */
function entryOf(item: any): [string, string, string[]] {
  const target = item.targetReference;
  const described =
    target.kind === 'page' ? `page ${target.page}#${target.internalLocation?.anchor ?? ''}` : target.kind === 'file' ? `file ${target.file}` : `url ${target.url}`;
  return [described, item.status, item.locationReferences.map((location: any) => location.page)];
}

const byTarget = (a: [string, ...unknown[]], b: [string, ...unknown[]]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** What the model says every link of a state is: each distinct target, its status, the pages linking to it. */
function expectedSpace(state: State): [string, string, string[]][] {
  const targets = new Map<string, [string, string, string[]]>();
  for (const page of state.pages.values()) {
    for (const [described, target] of targetsOf(page)) {
      const entry = targets.get(described) ?? [described, statusIn(state, target), []];
      entry[2].push(page.id);
      targets.set(described, entry);
    }
  }
  return [...targets.values()].map(([d, s, pages]) => [d, s, pages.sort()] as [string, string, string[]]).sort(byTarget);
}

/**
 * The incremental index of the request's revision (the test's cache keeps the previous one) equals the
 * index built from nothing, and parsed no more bodies than the last batch wrote.
 */
async function checkIndex(real: Real, revisionId: string) {
  let parses = 0;
  const parse = (markdown: string) => {
    parses++;
    return outlineOf(markdown);
  };
  await real.platform.store.read(async (tx) => {
    const revision = await loadRevision(tx, revisionId);
    const incremental = await linksIndexOf({ tx, derived: real.cache, parse, workers: inlineWorkers }, revision);
    expect(plainIndex(incremental)).toEqual(plainIndex(await buildLinksIndex(tx, revision)));
  });
  expect(parses).toBeLessThanOrEqual(real.parseBudget);
}

/** Compares the request's page lists, stats and backlinks, and the space's link list, with the model. */
export async function check(model: Model, real: Real): Promise<void> {
  const { api, spaceId } = real;
  const changeRequestId = real.changeRequestId;
  const request = await api.getChangeRequest({ spaceId, changeRequestId });
  await checkIndex(real, request.revision);
  // The space's index too, so that a merge derives the merged revision's index from it.
  await checkIndex(real, (await api.getSpace({ spaceId })).revision);

  for (const page of model.request.pages.values()) {
    const list = await api.listPageLinksInChangeRequest({ spaceId, changeRequestId, pageId: page.id, limit: 1000 });
    const expected = [...targetsOf(page)].map(([described, target]) => [described, statusIn(model.request, target), [page.id]] as [string, string, string[]]).sort(byTarget);
    expect(list.items.map(entryOf).sort(byTarget), `links of page ${page.id}`).toEqual(expected);
    const brokenBefore = new Set(
      [...targetsOf(model.base.pages.get(page.id))].filter(([, target]) => statusIn(model.base, target) === 'broken').map(([described]) => described),
    );
    const broken = expected.filter(([, status]) => status === 'broken');
    expect(list.stats, `stats of page ${page.id}`).toEqual({
      total: expected.length,
      broken: { total: broken.length, changeRequest: broken.filter(([described]) => !brokenBefore.has(described)).length },
    });
  }
  for (const file of model.request.files) {
    const backlinks = await api.listChangeRequestFileBacklinks({ spaceId, changeRequestId, fileId: file, limit: 1000 });
    const pages = [...model.request.pages.values()].filter((page) => targetsOf(page).has(describe({ kind: 'file', file }))).map((page) => page.id);
    expect(backlinks.items.map((item) => item.page), `backlinks of ${file}`).toEqual(pages.sort());
  }
  const gone = model.removed.find((id) => !model.request.pages.has(id));
  if (gone) expect(await outcome(() => api.listPageLinksInChangeRequest({ spaceId, changeRequestId, pageId: gone }))).toBe(404);

  const space = await api.listSpaceLinks({ spaceId, limit: 1000 });
  const expected = expectedSpace(model.space);
  expect(space.items.map(entryOf).sort(byTarget), 'space links').toEqual(expected);
  expect(space.stats).toEqual({ total: expected.length, broken: { total: expected.filter(([, status]) => status === 'broken').length } });
}
