import type fc from 'fast-check';
import { expect } from 'vitest';
import { defaultAfterRemoval, ids, moveIn, outcome, pick, publishedSections, verify, type Model, type Placement, type Real } from './model.js';

/** The commands on site spaces: add, move, delete, and choose a level's default. */

/** The level of a site space: its section's list, or the root's, with a way to set its default. */
function levelOf(model: Model, siteSpaceId: string) {
  for (const [id, section] of model.sections) {
    if (section.siteSpaces.includes(siteSpaceId)) {
      return { sectionId: id as string | undefined, list: section.siteSpaces, setList: (list: string[]) => (section.siteSpaces = list), getDefault: () => section.default, setDefault: (value: string | undefined) => (section.default = value) };
    }
  }
  return { sectionId: undefined, list: model.root, setList: (list: string[]) => (model.root = list), getDefault: () => model.rootDefault, setDefault: (value: string | undefined) => (model.rootDefault = value) };
}

/** Every site space, in published order. */
const allSiteSpaces = (model: Model) => (model.sections.size > 0 ? publishedSections(model).flatMap((id) => model.sections.get(id)!.siteSpaces) : model.root);

/** Adds a pool space to a section (picked, or the default one when `section` is null) or to the root of a site without sections. */
export class AddSiteSpace implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly space: number,
    readonly section: number | null,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const space = this.space % real.spaces.length;
    const chosen = this.section === null ? undefined : pick(publishedSections(model), this.section);
    const sectionId = model.sections.size === 0 ? undefined : (chosen ?? model.defaultSection);
    const level = sectionId === undefined ? { list: model.root } : { list: model.sections.get(sectionId)!.siteSpaces };
    const result = await outcome(() => real.api.addSpaceToSite({ ...ids(real), spaceId: real.spaces[space], ...(chosen !== undefined && { sectionId: chosen }) }));
    if (level.list.some((id) => model.spaceOf.get(id) === space)) {
      expect(result).toEqual({ status: 409 });
    } else {
      if (!('ok' in result)) throw new Error(`add failed with ${result.status}`);
      const id = result.ok.id;
      model.spaceOf.set(id, space);
      if (sectionId === undefined) {
        model.root.push(id);
        model.rootDefault ??= id;
      } else {
        const section = model.sections.get(sectionId)!;
        section.siteSpaces.push(id);
        section.default ??= id;
      }
      expect(result.ok.default).toBe(level.list.length === 1);
    }
    await verify(model, real);
  }
  toString() {
    return `addSiteSpace(space ${this.space}, section ${this.section ?? 'default'})`;
  }
}

/** Moves a site space to the end, or before or after a site space of the site (maybe of another level, or itself). */
export class MoveSiteSpace implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly siteSpace: number,
    readonly mode: Placement['mode'],
    readonly target: number,
  ) {}
  check = (model: Readonly<Model>) => allSiteSpaces(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const all = allSiteSpaces(model);
    const moving = pick(all, this.siteSpace)!;
    const placement: Placement = this.mode === 'end' ? { mode: 'end' } : { mode: this.mode, target: pick(all, this.target)! };
    const level = levelOf(model, moving);
    const expected = moveIn(level.list, moving, placement);
    const position = placement.mode === 'end' ? undefined : { [placement.mode]: { type: 'site-space' as const, siteSpace: placement.target } };
    const result = await outcome(() => real.api.moveSiteSpace({ ...ids(real), siteSpaceId: moving, ...(position && { position }) }));
    expect('ok' in result ? 200 : result.status).toBe(expected.status);
    level.setList(expected.list);
    await verify(model, real);
  }
  toString() {
    return `moveSiteSpace(${this.siteSpace}, ${this.mode} ${this.target})`;
  }
}

/** Deletes a site space. */
export class DeleteSiteSpace implements fc.AsyncCommand<Model, Real> {
  constructor(readonly siteSpace: number) {}
  check = (model: Readonly<Model>) => allSiteSpaces(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const target = pick(allSiteSpaces(model), this.siteSpace)!;
    await real.api.deleteSiteSpace({ ...ids(real), siteSpaceId: target });
    const level = levelOf(model, target);
    const list = level.list.filter((id) => id !== target);
    level.setList(list);
    level.setDefault(defaultAfterRemoval(list, level.getDefault(), target));
    model.spaceOf.delete(target);
    await verify(model, real);
  }
  toString() {
    return `deleteSiteSpace(${this.siteSpace})`;
  }
}

/**
 * Makes a site space the default of its level: through its section's PATCH, or through the site's
 * PATCH, which only reaches the root or the default section (400 elsewhere).
 */
export class SetDefaultSiteSpace implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly siteSpace: number,
    readonly viaSite: boolean,
  ) {}
  check = (model: Readonly<Model>) => allSiteSpaces(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const target = pick(allSiteSpaces(model), this.siteSpace)!;
    const level = levelOf(model, target);
    const viaSite = this.viaSite || level.sectionId === undefined;
    const result = await outcome<unknown>(() =>
      viaSite
        ? real.api.updateSite({ ...ids(real), defaultSiteSpace: target })
        : real.api.updateSiteSection({ ...ids(real), siteSectionId: level.sectionId!, defaultSiteSpace: target }),
    );
    const reachable = !viaSite || level.sectionId === undefined || level.sectionId === model.defaultSection;
    expect('ok' in result ? 200 : result.status).toBe(reachable ? 200 : 400);
    if (reachable) level.setDefault(target);
    await verify(model, real);
  }
  toString() {
    return `setDefaultSiteSpace(${this.siteSpace}${this.viaSite ? ', via the site' : ''})`;
  }
}
