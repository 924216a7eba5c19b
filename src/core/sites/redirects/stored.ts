import type { ReadTransaction } from '../../../store/types.js';
import { INDEXES, TABLES, type SiteRedirectRecord } from '../../records.js';
import { decodedSource } from './schemas.js';

/**
 * How site redirects are kept and found: each record carries the keys it is found by (records.ts says
 * which), made here alone; a path of a site matches the live redirect from that very path, else the live
 * wildcard redirect whose prefix (its source without the `*`) is the longest that begins the path.
 */

const mode = (draft: boolean) => (draft ? 'draft' : 'live');

/** The key of a site's redirect from a path (percent-decoded), live or draft. */
const keyOf = (siteId: string, draft: boolean, path: string) => `${siteId}\u0000${mode(draft)}\u0000${path}`;

/** The key of the list of a site's live or draft redirects. */
export const listKeyOf = (siteId: string, draft: boolean) => `${siteId}\u0000${mode(draft)}`;

/** What a redirect is made of; the keys it is found by are derived from it. */
export type RedirectFields = Pick<
  SiteRedirectRecord,
  'id' | 'siteId' | 'organizationId' | 'source' | 'draft' | 'captureWildcard' | 'permanent' | 'destination' | 'createdAt' | 'updatedAt'
>;

/** A redirect record: its fields, and the keys it is found by. */
export function redirectRecord(fields: RedirectFields): SiteRedirectRecord {
  const { id, siteId, organizationId, source, draft, captureWildcard, permanent, destination, createdAt, updatedAt } = fields;
  return {
    id,
    siteId,
    organizationId,
    source,
    draft,
    captureWildcard,
    permanent,
    destination,
    createdAt,
    ...(updatedAt !== undefined && { updatedAt }),
    sourceKey: keyOf(siteId, draft, decodedSource(source)),
    listKey: listKeyOf(siteId, draft),
    touchedAt: updatedAt ?? createdAt,
    ...(!draft && source.endsWith('*') && { wildcardSite: siteId }),
  };
}

/** A site's redirect from a source (as given, percent-encoded), live or draft. */
export async function redirectFrom(tx: ReadTransaction, siteId: string, draft: boolean, source: string): Promise<SiteRedirectRecord | undefined> {
  const { items } = await tx.list(TABLES.siteRedirects, { index: INDEXES.siteRedirectsBySource, value: keyOf(siteId, draft, decodedSource(source)), limit: 1 });
  return items[0] as SiteRedirectRecord | undefined;
}

/** A live redirect a path matches, with the rest of the path its wildcard matched ('' for an exact source). */
export interface RedirectMatch {
  readonly redirect: SiteRedirectRecord;
  readonly rest: string;
  /** Whether the source ends with `/*`: the rest is a path below it. */
  readonly below: boolean;
}

/** The live redirect of a site that a path (percent-decoded, `/` first) matches, if any. */
export async function matchRedirect(tx: ReadTransaction, siteId: string, path: string): Promise<RedirectMatch | undefined> {
  const { items } = await tx.list(TABLES.siteRedirects, { index: INDEXES.siteRedirectsBySource, value: keyOf(siteId, false, path), limit: 1 });
  const exact = items[0] as SiteRedirectRecord | undefined;
  if (exact && !exact.source.endsWith('*')) return { redirect: exact, rest: '', below: false };
  let best: RedirectMatch | undefined;
  let bestLength = -1;
  const wildcards = await tx.list(TABLES.siteRedirects, { index: INDEXES.siteRedirectsWildcards, value: siteId });
  for (const redirect of wildcards.items as SiteRedirectRecord[]) {
    const prefix = decodedSource(redirect.source).slice(0, -1);
    if (!path.startsWith(prefix) || prefix.length <= bestLength) continue;
    best = { redirect, rest: path.slice(prefix.length), below: prefix.endsWith('/') };
    bestLength = prefix.length;
  }
  return best;
}
