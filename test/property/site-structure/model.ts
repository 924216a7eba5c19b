import { expect } from 'vitest';
import type { manualClock } from '../../../src/core/clock.js';
import { ApiError } from '../../../src/core/errors.js';
import type { Api, Platform } from '../../../src/core/platform.js';

/**
 * The model of one site's structure, in plain arrays: the root site spaces (a site without sections),
 * the top level (ungrouped sections and groups), each group's sections, each section's site spaces, and
 * the defaults. Its rules are the specification's and docs/api-notes.md's:
 * - things are added at the end; a move without a position goes to the end; a move that changes
 *   nothing is a 409; a reference to the item itself or to something outside its level is a 400;
 * - the first site space of a level, and the first section of a site, is the default; deleting a
 *   default makes the first remaining one the default; moves never change defaults;
 * - the first section of a site with root site spaces first gathers them into a section of their own;
 * - deleting a group puts its sections in its place; taking a section out of a group puts it right
 *   after the group; putting it in a group appends it there (out of any other group).
 */

/** An entry of the top level. */
export interface Entry {
  kind: 'section' | 'group';
  id: string;
}

/** A section: its site spaces in order, its default, and the pool spaces they show. */
export interface SectionModel {
  siteSpaces: string[];
  default?: string;
}

export interface Model {
  root: string[];
  rootDefault?: string;
  top: Entry[];
  groups: Map<string, string[]>;
  sections: Map<string, SectionModel>;
  defaultSection?: string;
  /** The pool space each site space shows (its index in `Real.spaces`). */
  spaceOf: Map<string, number>;
}

export interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  api: Api;
  organizationId: string;
  siteId: string;
  /** The ids of the spaces commands put on the site. */
  spaces: string[];
}

/** The ids the real calls take for the site. */
export const ids = (real: Real) => ({ organizationId: real.organizationId, siteId: real.siteId });

/** Runs an operation and returns its result, or the status it failed with. */
export async function outcome<T>(action: () => Promise<T>): Promise<{ ok: T } | { status: number }> {
  try {
    return { ok: await action() };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status };
    throw error;
  }
}

/** Every section in published order (a group's sections at the group's place). */
export function publishedSections(model: Model): string[] {
  return model.top.flatMap((entry) => (entry.kind === 'section' ? [entry.id] : model.groups.get(entry.id)!));
}

/** The list a section sits in: the top level's section ids, or its group's. */
export function containerOf(model: Model, sectionId: string): { group?: string } {
  for (const [group, members] of model.groups) if (members.includes(sectionId)) return { group };
  return {};
}

/** Picks an element by a natural number, modulo the length (undefined when there is none). */
export const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);

/** The default of a level after `removed` left it: kept unless it was the one removed, then the first left. */
export function defaultAfterRemoval(items: readonly string[], current: string | undefined, removed: string): string | undefined {
  return current === removed ? items[0] : current;
}

/** Where a moved item lands among `others` (its siblings without it): the end, or next to a target. */
export type Placement = { mode: 'end' } | { mode: 'before' | 'after'; target: string };

/** The slot of a placement among `others`, or a 400 when the target is not there. */
export function slotOf(others: readonly string[], placement: Placement): number | 400 {
  if (placement.mode === 'end') return others.length;
  const index = others.indexOf(placement.target);
  if (index < 0) return 400;
  return placement.mode === 'before' ? index : index + 1;
}

/**
 * Applies a move to a list: the expected status (200, 400 or 409) and the list after it. A reference
 * to the moving item itself is a 400; landing where it is, a 409.
 */
export function moveIn(list: readonly string[], moving: string, placement: Placement): { status: 200 | 400 | 409; list: string[] } {
  if (placement.mode !== 'end' && placement.target === moving) return { status: 400, list: [...list] };
  const others = list.filter((id) => id !== moving);
  const slot = slotOf(others, placement);
  if (slot === 400) return { status: 400, list: [...list] };
  if (list.indexOf(moving) === slot) return { status: 409, list: [...list] };
  return { status: 200, list: [...others.slice(0, slot), moving, ...others.slice(slot)] };
}

/** Compares everything observable about the site's structure with the model. */
export async function verify(model: Model, real: Real): Promise<void> {
  const published = await real.api.getPublishedContentSite(ids(real));
  const flagged = (list: string[], chosen: string | undefined) => list.map((id) => `${id}${id === chosen ? '*' : ''}`);
  const sectionOutline = (id: string) => ({ [`${id}${id === model.defaultSection ? '*' : ''}`]: flagged(model.sections.get(id)!.siteSpaces, model.sections.get(id)!.default) });
  const hasSections = model.sections.size > 0;
  const expected = hasSections
    ? model.top.map((entry) => (entry.kind === 'section' ? sectionOutline(entry.id) : { [`group ${entry.id}`]: model.groups.get(entry.id)!.map(sectionOutline) }))
    : flagged(model.root, model.rootDefault);
  const actualSection = (section: any) => ({
    [`${section.id}${section.default ? '*' : ''}`]: section.siteSpaces.map((item: any) => `${item.id}${item.default ? '*' : ''}`),
  });
  const structure = published.structure;
  const actual =
    structure.type === 'sections'
      ? structure.structure.map((entry: any) => (entry.object === 'site-section-group' ? { [`group ${entry.id}`]: entry.sections.map(actualSection) } : actualSection(entry)))
      : structure.structure.map((item: any) => `${item.id}${item.default ? '*' : ''}`);
  expect(structure.type).toBe(hasSections ? 'sections' : 'siteSpaces');
  expect(actual).toEqual(expected);
  // The lists agree with the structure, and so does the count.
  const sections = await real.api.listSiteSections({ ...ids(real), limit: 1000 });
  expect(sections.items.map((section) => section.id)).toEqual(publishedSections(model));
  const allSiteSpaces = hasSections ? publishedSections(model).flatMap((id) => model.sections.get(id)!.siteSpaces) : model.root;
  const siteSpaces = await real.api.listSiteSpaces({ ...ids(real), limit: 1000 });
  expect(siteSpaces.items.map((item) => item.id)).toEqual(allSiteSpaces);
  expect(siteSpaces.items.map((item) => real.spaces.indexOf(item.space.id))).toEqual(allSiteSpaces.map((id) => model.spaceOf.get(id)));
  expect((await real.api.getSite(ids(real))).siteSpaces).toBe(allSiteSpaces.length);
  const groups = await real.api.listSiteSectionGroups({ ...ids(real), limit: 1000 });
  expect(groups.items.map((group) => [group.id, group.sections.map((section) => section.id)])).toEqual(
    model.top.filter((entry) => entry.kind === 'group').map((entry) => [entry.id, model.groups.get(entry.id)]),
  );
}
