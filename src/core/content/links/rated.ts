import type { Urls } from '../../context.js';
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

/** Rates targets (sorted by key) against what a revision has; `urls` says where the app is. */
export function rateTargets(lookup: LinkLookup, targets: readonly Omit<Rated, 'status'>[], urls: Urls): RatedList {
  const inApp = inAppTest(urls);
  const all: Rated[] = targets.map((target) => ({ ...target, status: statusOf(lookup, target.ref, inApp) }));
  const byStatus: Record<LinkStatus, Rated[]> = { ok: [], broken: [], 'in-app': [] };
  for (const entry of all) byStatus[entry.status].push(entry);
  return { all, byStatus };
}

/**
 * Every target of an index, rated, kept with the index for each app address it was read under (the
 * address is the request's origin unless the platform has a fixed base URL: a few per platform). An index
 * never changes, so a space's list is rated once, and each request only pages through it.
 */
const ratedIndexes = new WeakMap<LinksIndex, Map<string, RatedList>>();

/** The rated targets of a whole index for the app at `urls`. */
export function rateIndex(index: LinksIndex, urls: Urls): RatedList {
  let byApp = ratedIndexes.get(index);
  if (!byApp) ratedIndexes.set(index, (byApp = new Map()));
  const app = urls.app('/');
  let rated = byApp.get(app);
  if (!rated) byApp.set(app, (rated = rateTargets(index, index.keys.map((key) => index.targets.get(key)!), urls)));
  return rated;
}
