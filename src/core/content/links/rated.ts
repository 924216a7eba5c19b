import type { Urls } from '../../context.js';
import { pause } from '../../pause.js';
import type { LinksIndex } from './links-index.js';
import type { LinkRef } from './scan.js';
import { inAppTest, statusOf, type LinkLookup, type LinkStatus } from './status.js';

/** A target with its status in the revision read. */
export interface Rated {
  readonly key: string;
  readonly ref: LinkRef;
  readonly status: LinkStatus;
  readonly locations: readonly string[];
}

/** Targets with their statuses, sorted by key: all of them, and those of each status. */
export interface RatedList {
  readonly all: readonly Rated[];
  readonly byStatus: Readonly<Record<LinkStatus, readonly Rated[]>>;
}

/**
 * How many targets are rated between two pauses. A page of 1 MiB can hold 20,000 links, and rating one parses
 * its URL: all at once, that held the event loop 100 to 280 ms on a loaded 2-core machine.
 */
const RATED_PER_SLICE = 1000;

/** Rates targets (sorted by key) against what a revision has; `urls` says where the app is. */
export async function rateTargets(lookup: LinkLookup, targets: readonly Omit<Rated, 'status'>[], urls: Urls): Promise<RatedList> {
  const inApp = inAppTest(urls);
  const all: Rated[] = [];
  const byStatus: Record<LinkStatus, Rated[]> = { ok: [], broken: [], 'in-app': [] };
  for (const target of targets) {
    const entry = { ...target, status: statusOf(lookup, target.ref, inApp) };
    all.push(entry);
    byStatus[entry.status].push(entry);
    if (all.length % RATED_PER_SLICE === 0) await pause();
  }
  return { all, byStatus };
}

/**
 * Every target of an index, rated, kept with the index for each app address it was read under (the
 * address is the request's origin unless the platform has a fixed base URL: a few per platform). An index
 * never changes, so a space's list is rated once, and each request only pages through it.
 */
const ratedIndexes = new WeakMap<LinksIndex, Map<string, Promise<RatedList>>>();

/** The rated targets of a whole index for the app at `urls`. */
export function rateIndex(index: LinksIndex, urls: Urls): Promise<RatedList> {
  let byApp = ratedIndexes.get(index);
  if (!byApp) ratedIndexes.set(index, (byApp = new Map()));
  const app = urls.app('/');
  let rated = byApp.get(app);
  if (!rated) byApp.set(app, (rated = rateTargets(index, index.keys.map((key) => index.targets.get(key)!), urls)));
  return rated;
}
