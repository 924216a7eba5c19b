import type { RevisionRecord } from '../../records.js';
import { readFile, readPage } from '../revision.js';
import { indexAtHand, linksIndexOf, readOutline, type IndexContext } from './links-index.js';
import { scanEntry, type PageFacts } from './scan.js';
import type { LinkLookup } from './status.js';

/** What one page's link list is read from: the page's facts, and the pages and files its links name. */
export interface PageLinks {
  readonly facts: PageFacts;
  readonly lookup: LinkLookup;
}

/**
 * The links of one page of a revision (undefined: no such page). From the revision's index when it is
 * cached or derivable from a cached parent's; otherwise read directly, so that one page's list never waits
 * for every body of a large space to be parsed: the page's body, the bodies of the pages its links point
 * into with an anchor, and the existence of the pages and files they name (O(links) lookups).
 */
export async function pageLinksOf(ctx: IndexContext, revision: RevisionRecord, pageId: string): Promise<PageLinks | undefined> {
  if (indexAtHand(ctx, revision)) {
    const index = await linksIndexOf(ctx, revision);
    const facts = index.pages.get(pageId);
    return facts && { facts, lookup: index };
  }
  const parse = readOutline(ctx);
  const page = await readPage(ctx.tx, revision, pageId);
  if (!page) return undefined;
  const facts = await scanEntry(ctx.tx, page, parse);
  const pages = new Map([[facts.id, facts]]);
  const files = new Set<string>();
  // Only a link with an anchor needs the target's headings; a bare link only needs the page to exist.
  const anchored = new Set(facts.refs.flatMap((ref) => (ref.kind === 'page' && ref.anchor !== undefined ? [ref.page] : [])));
  for (const ref of facts.refs) {
    if (ref.kind === 'file' && (await readFile(ctx.tx, revision, ref.file))) files.add(ref.file);
    if (ref.kind !== 'page' || pages.has(ref.page)) continue;
    const target = await readPage(ctx.tx, revision, ref.page);
    if (!target) continue;
    pages.set(target.id, anchored.has(target.id) ? await scanEntry(ctx.tx, target, parse) : { id: target.id, type: target.type, anchors: new Set(), refs: [] });
  }
  return { facts, lookup: { pages, files } };
}
