import * as v from 'valibot';
import type { WriteContext } from '../context.js';
import { readPage } from '../content/revision.js';
import { INDEXES, TABLES, type RevisionRecord, type SiteRecord, type SiteRedirectRecord, type SiteSpaceRecord } from '../records.js';
import { holdExclusive, siteScope } from '../scopes.js';
import { SourcePath } from '../sites/redirects/schemas.js';
import { redirectFrom, redirectRecord } from '../sites/redirects/stored.js';
import { saveRedirect } from '../sites/redirects/operations.js';
import { loadStructure } from '../sites/structure.js';
import { siteSpaceSegments } from '../sites/urls.js';

/**
 * The redirects of a synced repository's `.gitbook.yaml` (an old path → a page's file) as the redirects of
 * every site that shows the space: from the old path under the site space's URL (`/help`, or
 * `/guides/help` in a section) to the page, live. The sync keeps the ids of the redirects it made, and
 * the next import updates them, or deletes those its configuration no longer lists. A redirect from the
 * same source that the site's admins made is theirs: an import leaves it as it is.
 */

/** A path segment as a redirect's source spells it: every byte but letters, digits and `-._~+` percent-encoded. */
const sourceSegment = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);

/** The redirects to make: the page of each old path, by old path (its file must be a page of the revision). */
async function redirectedPages(ctx: WriteContext, revision: RevisionRecord, redirects: Readonly<Record<string, string>>, paths: Readonly<Record<string, string>>): Promise<Map<string, string>> {
  const pageOfPath = new Map(Object.entries(paths).map(([id, path]) => [path, id]));
  const pages = new Map<string, string>();
  for (const [from, file] of Object.entries(redirects)) {
    const id = pageOfPath.get(file);
    if (id !== undefined && (await readPage(ctx.tx, revision, id))) pages.set(from, id);
  }
  return pages;
}

/**
 * Makes the site redirects of a configuration's `redirects` for a space's new revision, given where its
 * pages are in the repository (`paths`, id → path), and the ids the last sync made; resolves to the ids
 * of those it made now.
 */
export async function syncSiteRedirects(
  ctx: WriteContext,
  spaceId: string,
  revision: RevisionRecord,
  config: { readonly redirects: Readonly<Record<string, string>>; readonly paths: Readonly<Record<string, string>> },
  previous: readonly string[],
): Promise<string[]> {
  const pages = await redirectedPages(ctx, revision, config.redirects, config.paths);
  const ours = new Set(previous);
  const made: string[] = [];
  const siteSpaces = (await ctx.tx.list(TABLES.siteSpaces, { index: INDEXES.siteSpacesBySpace, value: spaceId })).items as SiteSpaceRecord[];
  for (const siteSpace of pages.size === 0 ? [] : siteSpaces) {
    // A redirect's source is unique in its site: checked and made under the site's scope, as its admins' are.
    await holdExclusive(ctx.tx, siteScope(siteSpace.siteId));
    const site = (await ctx.tx.get(TABLES.sites, siteSpace.siteId)) as SiteRecord | undefined;
    if (!site) continue;
    const structure = await loadStructure(ctx.tx, site);
    const placed = structure.siteSpaces.find((item) => item.record.id === siteSpace.id);
    if (!placed) continue;
    const prefix = siteSpaceSegments(structure, placed).segments;
    for (const [from, pageId] of pages) {
      const source = `/${[...prefix, ...from.split('/')].map(sourceSegment).join('/')}`;
      if (!v.is(SourcePath, source)) continue;
      const destination = { kind: 'site-page' as const, siteSpaceId: siteSpace.id, pageId };
      const existing = await redirectFrom(ctx.tx, site.id, false, source);
      if (existing && !ours.has(existing.id)) continue;
      if (existing) {
        made.push((await saveRedirect(ctx, existing, { destination })).id);
        continue;
      }
      const record = redirectRecord({ id: ctx.ids.id(), siteId: site.id, organizationId: site.organizationId, source, draft: false, captureWildcard: false, permanent: false, destination, createdAt: ctx.now });
      await ctx.tx.insert(TABLES.siteRedirects, record);
      made.push(record.id);
    }
  }
  const kept = new Set(made);
  for (const id of previous) {
    if (kept.has(id)) continue;
    const gone = (await ctx.tx.get(TABLES.siteRedirects, id)) as SiteRedirectRecord | undefined;
    if (gone) await ctx.tx.delete(TABLES.siteRedirects, id);
  }
  return made;
}
