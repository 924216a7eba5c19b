import type * as v from 'valibot';
import { baseRevisionOf } from '../../change-requests/access.js';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { readOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { nameOf, twins } from '../read.js';
import { loadRevision } from '../revision.js';
import { spaceContent, type ContentTarget } from '../target.js';
import { linksIndexOf } from './links-index.js';
import { pageLinksOf } from './page-links.js';
import { pageOfSorted } from './paging.js';
import { linkEntry, whereOf } from './present.js';
import { rateIndex, rateTargets, type RatedList } from './rated.js';
import { refKey, type PageFacts } from './scan.js';
import { LinkListQuery, LinkListSchema } from './schemas.js';
import type { LinkStatus } from './status.js';

/**
 * The link lists: every link of a space, and the links of one page of a space or a change request.
 * An entry is one distinct target with the pages linking to it, in target order (pages by id, then
 * anchors, then files by id, then URLs). `stats` counts the whole list whatever `status` keeps.
 */

type LinkList = v.InferInput<typeof LinkListSchema>;

/** The response: stats over every entry, then the page of the entries `status` keeps. */
function linkList(target: ContentTarget, rated: RatedList, input: { status?: LinkStatus; page?: string; limit?: number }, brokenByChangeRequest?: number): LinkList {
  const kept = input.status === undefined ? rated.all : rated.byStatus[input.status];
  const page = pageOfSorted(kept, (entry) => entry.key, input);
  const where = whereOf(target);
  const broken = { total: rated.byStatus.broken.length, ...(brokenByChangeRequest !== undefined && { changeRequest: brokenByChangeRequest }) };
  return {
    items: page.items.map((entry) => linkEntry(where, entry.ref, entry.status, entry.locations)),
    count: page.count,
    ...(page.next && { next: page.next }),
    stats: { total: rated.all.length, broken },
  };
}

/** The targets of one page, each with that page as its only location. */
const pageTargets = (facts: PageFacts) => facts.refs.map((ref) => ({ key: refKey(ref), ref, locations: [facts.id] }));

/**
 * How many of a change request page's broken links the request introduced: broken now, and not a
 * broken link of the same page in the request's base revision (absent there, or fine there).
 */
async function introducedBroken(ctx: Context, target: ContentTarget, pageId: string, rated: RatedList): Promise<number> {
  const base = await pageLinksOf(ctx, await loadRevision(ctx.tx, baseRevisionOf(target.changeRequest!)), pageId);
  const before = base ? (await rateTargets(base.lookup, pageTargets(base.facts), ctx.urls)).byStatus.broken : [];
  const brokenBefore = new Set(before.map((entry) => entry.key));
  return rated.byStatus.broken.filter((entry) => !brokenBefore.has(entry.key)).length;
}

/** Lists every link of a space's current content, with its status and the pages it is on. */
export const listSpaceLinks = readOperation({
  name: 'listSpaceLinks',
  summary: 'List the links of a space, with their status and the pages they are on',
  params: { spaceId: Id },
  query: LinkListQuery,
  response: LinkListSchema,
  async run(ctx, input) {
    const target = await spaceContent(ctx, input.spaceId);
    const index = await linksIndexOf(ctx, target.revision);
    return linkList(target, await rateIndex(index, ctx.urls), input);
  },
});

/**
 * Lists the links of one page of a space or a change request (each entry's location is that page);
 * on a change request, `stats.broken.changeRequest` counts the broken ones it introduced.
 */
export const [listPageLinksInSpace, listPageLinksInChangeRequest] = twins({
  space: ['listPageLinksInSpace', 'List the links of a page of a space'],
  changeRequest: ['listPageLinksInChangeRequest', 'List the links of a page of a change request'],
  params: { pageId: Id },
  query: LinkListQuery,
  response: LinkListSchema,
  run: async (ctx, target, input) => {
    const links = await pageLinksOf(ctx, target.revision, input.pageId);
    if (!links) throw notFound(`No page ${input.pageId} in ${nameOf(target)}`);
    const rated = await rateTargets(links.lookup, pageTargets(links.facts), ctx.urls);
    const introduced = target.changeRequest ? await introducedBroken(ctx, target, links.facts.id, rated) : undefined;
    return linkList(target, rated, input, introduced);
  },
});
