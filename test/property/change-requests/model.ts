import { expect } from 'vitest';
import type { manualClock } from '../../../src/core/clock.js';
import type { Api, Platform } from '../../../src/core/platform.js';
import { outcome } from '../outcome.js';

/**
 * The model of one space's change requests and content, in plain data. Content is flat: top-level pages
 * by path, each with a title and a one-line body. Titles are unique in a run, so each page's path (its
 * slug, taken from the title it was inserted with and then kept) names it for good.
 *
 * Its rules are docs/api-notes.md's ("Change requests and content", "Change requests: merge and update"):
 * - a request starts as a draft with the next number, from the space's revision and content; PATCH sets
 *   draft, open or archived freely (also on a locked space), and nothing on a merged request (409);
 * - a content batch is refused on a locked space and on archived or merged requests (409), and when one
 *   of its changes is invalid (400); then nothing changes; revert_page sets a page back as the request's
 *   base has it (its title and body; a page the base does not have is deleted, one it has is put back);
 * - merge needs the review level (403 for an editor), a live space (409), a draft or open request (409);
 *   update needs the edit level and the same; an update of a request that is not outdated changes nothing;
 * - merging and updating combine the space's and the request's changes since the request's base, page
 *   by page and field by field (`mergeContents`): the request wins what both changed differently, and
 *   the answer then says `conflicts`.
 * Revision ids cannot be predicted, but which ones are new and which fields must equal which can: a new
 * one is checked to be unseen when it appears, then the model holds it.
 */

/** A page of the model: its title and its one-line body. */
export interface Page {
  readonly title: string;
  readonly body: string;
}

/** A content: pages by path. */
export type Content = ReadonlyMap<string, Page>;

/** The statuses a request can have; `merged` only through a merge. */
export type Status = 'draft' | 'open' | 'archived' | 'merged';

/** A change request of the model. */
export interface RequestModel {
  status: Status;
  subject: string;
  /** The space content it started from or was last brought up to date with. */
  base: Content;
  content: Content;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
}

export interface Model {
  locked: boolean;
  space: { content: Content; revision: string };
  requests: RequestModel[];
  /** Every revision id seen so far: a new revision must not be one of them. */
  seen: Set<string>;
}

export interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  owner: Api;
  editor: Api;
  spaceId: string;
  /** The id of each request, in creation order (the model's order). */
  ids: string[];
  /** How many pages the run inserted: new titles are `Page <n>`, unique in the run. */
  inserted: number;
  /** How many bodies and titles the run wrote: each new one is unique in the run. */
  written: number;
  /** The id of every page the run has read, by path (a path names one page for good: titles are unique). */
  pageIds: Map<string, string>;
}

/** The revision a request is based on: the space revision it was last brought up to date with, else its first. */
export const baseOf = (request: RequestModel) => request.revisionMergedAncestor ?? request.revisionInitial;

/** Whether a request is behind the space. */
export const isOutdated = (model: Model, request: RequestModel) => request.status !== 'merged' && baseOf(request) !== model.space.revision;

/** Runs a call: the status it failed with (an ApiError's) or 'ok', and what it answered when it succeeded. */
export async function attempt<T>(call: () => Promise<T>): Promise<{ result: number | 'ok'; answer?: T }> {
  let answer: T | undefined;
  const result = await outcome(async () => {
    answer = await call();
  });
  return { result, answer };
}

/** Records a revision id the model expects to be new; fails when it was seen before. */
export function fresh(model: Model, revision: string): string {
  expect(model.seen.has(revision), `revision ${revision} is new`).toBe(false);
  model.seen.add(revision);
  return revision;
}

/** A command's target: a position among every request (`any`), else among those not merged (when there are some). */
export interface Target {
  readonly pick: number;
  readonly any: boolean;
}

/** The index of the request a target names (the model has at least one request). */
export function targetIndex(model: Readonly<Model>, { pick, any }: Target): number {
  const live = model.requests.flatMap((request, i) => (request.status === 'merged' ? [] : [i]));
  return any || live.length === 0 ? pick % model.requests.length : live[pick % live.length];
}

/** A target as a command's name shows it. */
export const show = ({ pick, any }: Target) => `${any ? 'any ' : ''}#${pick}`;

/** Picks an element by a natural number, modulo the length (undefined when there is none). */
export const pickOf = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);

/**
 * What a three-way choice of one value gives: ours when theirs left it, theirs otherwise; a conflict when
 * both changed it differently. Without a base (added on both sides), only agreement is no conflict.
 */
function choose(base: string | undefined, ours: string, theirs: string): { value: string; conflict: boolean } {
  if (ours === theirs || base === ours) return { value: theirs, conflict: false };
  if (base === theirs) return { value: ours, conflict: false };
  return { value: theirs, conflict: true };
}

/**
 * Combines the space's content (ours) and a request's (theirs) since their common base: a page only one
 * side added is kept; a page one side deleted is deleted unless the other side changed it, then the
 * request decides (a conflict); otherwise title and body each take the side that changed them. A page
 * both sides have and the base does not (the request kept a page the space deleted, and a later merge put
 * it back in the space) has each field added on both sides: a conflict where they differ.
 */
export function mergeContents(base: Content, ours: Content, theirs: Content): { content: Map<string, Page>; conflicts: boolean } {
  const content = new Map<string, Page>();
  let conflicts = false;
  for (const path of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(path), ours.get(path), theirs.get(path)];
    if (o && t) {
      const title = choose(b?.title, o.title, t.title);
      const body = choose(b?.body, o.body, t.body);
      conflicts ||= title.conflict || body.conflict;
      content.set(path, { title: title.value, body: body.value });
    } else if (o || t) {
      const kept = (o ?? t)!;
      if (!b) content.set(path, kept);
      else if (kept.title !== b.title || kept.body !== b.body) {
        conflicts = true;
        if (t) content.set(path, t);
      }
    }
  }
  return { content, conflicts };
}

/** The pages of a space or request content as the API returns them, by path: title and Markdown body. */
export async function readContent(api: Api, real: Real, changeRequestId?: string): Promise<Map<string, Page>> {
  const target = { spaceId: real.spaceId };
  const { pages } = changeRequestId === undefined ? await api.listSpacePages(target) : await api.listChangeRequestPages({ ...target, changeRequestId });
  const out = new Map<string, Page>();
  for (const { id } of pages as { id: string }[]) {
    const page = (changeRequestId === undefined
      ? await api.getSpacePage({ ...target, pageId: id })
      : await api.getChangeRequestPage({ ...target, changeRequestId, pageId: id })) as { path: string; title: string; markdown?: string };
    out.set(page.path, { title: page.title, body: (page.markdown ?? '').trim() });
    real.pageIds.set(page.path, id);
  }
  return out;
}

const STATUSES: readonly Status[] = ['draft', 'open', 'archived', 'merged'];

/**
 * Checks what the model says: the space's counts, revision and content; every request's status,
 * subject, revisions and `outdated`; the list of each status; and, when given, one request's content.
 */
export async function check(model: Model, real: Real, touched?: number): Promise<void> {
  const { owner, spaceId } = real;
  const space = await owner.getSpace({ spaceId });
  const count = (status: Status) => model.requests.filter((request) => request.status === status).length;
  expect([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], 'space counts').toEqual([model.requests.length, count('open'), count('draft')]);
  expect(space.revision, 'space revision').toBe(model.space.revision);
  for (const status of STATUSES) {
    const list = await owner.listChangeRequests({ spaceId, status, limit: 1000 });
    const numbers = model.requests.flatMap((request, i) => (request.status === status ? [i + 1] : [])).reverse();
    expect(list.items.map((item) => item.number), `${status} requests`).toEqual(numbers);
    expect(list.count).toBe(numbers.length);
  }
  for (const [i, request] of model.requests.entries()) {
    const actual = await owner.getChangeRequest({ spaceId, changeRequestId: String(i + 1) });
    expect(
      {
        id: actual.id,
        status: actual.status,
        subject: actual.subject,
        revision: actual.revision,
        revisionInitial: actual.revisionInitial,
        revisionMergedAncestor: actual.revisionMergedAncestor,
        revisionMerged: actual.revisionMerged,
        outdated: actual.outdated,
      },
      `request #${i + 1}`,
    ).toEqual({
      id: real.ids[i],
      status: request.status,
      subject: request.subject,
      revision: request.revision,
      revisionInitial: request.revisionInitial,
      revisionMergedAncestor: request.revisionMergedAncestor,
      revisionMerged: request.revisionMerged,
      outdated: isOutdated(model, request),
    });
  }
  expect(await readContent(owner, real), 'space content').toEqual(model.space.content);
  if (touched !== undefined) expect(await readContent(owner, real, real.ids[touched]), `content of request #${touched + 1}`).toEqual(model.requests[touched].content);
}
