import type fc from 'fast-check';
import { expect } from 'vitest';
import { containerOf, defaultAfterRemoval, ids, moveIn, outcome, pick, publishedSections, verify, type Model, type Placement, type Real } from './model.js';

/** The commands on sections: add (gathering the root on the first), move, delete, choose the default. */

/** The ids of a section's siblings (the top level's entries, or its group's sections), with a way to write them back. */
export function siblingsOf(model: Model, sectionId: string) {
  const { group } = containerOf(model, sectionId);
  if (group !== undefined) return { list: model.groups.get(group)!, write: (list: string[]) => model.groups.set(group, list) };
  const kinds = new Map(model.top.map((entry) => [entry.id, entry.kind]));
  return { list: model.top.map((entry) => entry.id), write: (list: string[]) => (model.top = list.map((id) => ({ kind: kinds.get(id)!, id }))) };
}

/** Adds a section showing a pool space. */
export class AddSection implements fc.AsyncCommand<Model, Real> {
  constructor(readonly space: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const space = this.space % real.spaces.length;
    const known = new Set(model.sections.keys());
    const created = await real.api.addSectionToSite({ ...ids(real), spaceId: real.spaces[space] });
    if (model.sections.size === 0 && model.root.length > 0) {
      // The root's site spaces become a section of their own, the default one, before the new one.
      const listed = (await real.api.listSiteSections({ ...ids(real), limit: 1000 })).items.map((section) => section.id);
      const gathered = listed.filter((id) => !known.has(id) && id !== created.id);
      expect(gathered).toHaveLength(1);
      model.sections.set(gathered[0], { siteSpaces: model.root, default: model.rootDefault });
      model.top.push({ kind: 'section', id: gathered[0] });
      model.defaultSection = gathered[0];
      model.root = [];
      model.rootDefault = undefined;
    }
    const siteSpace = created.siteSpaces[0].id;
    model.spaceOf.set(siteSpace, space);
    model.sections.set(created.id, { siteSpaces: [siteSpace], default: siteSpace });
    model.top.push({ kind: 'section', id: created.id });
    model.defaultSection ??= created.id;
    await verify(model, real);
  }
  toString() {
    return `addSection(space ${this.space})`;
  }
}

/** Moves a section to the end of its level, or before or after a section (maybe of another level, or itself). */
export class MoveSection implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly section: number,
    readonly mode: Placement['mode'],
    readonly target: number,
  ) {}
  check = (model: Readonly<Model>) => model.sections.size > 0;
  async run(model: Model, real: Real) {
    const sections = publishedSections(model);
    const moving = pick(sections, this.section)!;
    const placement: Placement = this.mode === 'end' ? { mode: 'end' } : { mode: this.mode, target: pick(sections, this.target)! };
    const siblings = siblingsOf(model, moving);
    const expected = moveIn(siblings.list, moving, placement);
    const position = placement.mode === 'end' ? undefined : { [placement.mode]: { type: 'site-section' as const, siteSection: placement.target } };
    const result = await outcome(() => real.api.moveSiteSection({ ...ids(real), siteSectionId: moving, ...(position && { position }) }));
    expect('ok' in result ? 200 : result.status).toBe(expected.status);
    siblings.write(expected.list);
    await verify(model, real);
  }
  toString() {
    return `moveSection(${this.section}, ${this.mode} ${this.target})`;
  }
}

/** Deletes a section with its site spaces. */
export class DeleteSection implements fc.AsyncCommand<Model, Real> {
  constructor(readonly section: number) {}
  check = (model: Readonly<Model>) => model.sections.size > 0;
  async run(model: Model, real: Real) {
    const target = pick(publishedSections(model), this.section)!;
    await real.api.deleteSiteSection({ ...ids(real), siteSectionId: target });
    const siblings = siblingsOf(model, target);
    siblings.write(siblings.list.filter((id) => id !== target));
    for (const siteSpace of model.sections.get(target)!.siteSpaces) model.spaceOf.delete(siteSpace);
    model.sections.delete(target);
    model.defaultSection = defaultAfterRemoval(publishedSections(model), model.defaultSection, target);
    await verify(model, real);
  }
  toString() {
    return `deleteSection(${this.section})`;
  }
}

/** Makes a section the site's default section. */
export class SetDefaultSection implements fc.AsyncCommand<Model, Real> {
  constructor(readonly section: number) {}
  check = (model: Readonly<Model>) => model.sections.size > 0;
  async run(model: Model, real: Real) {
    const target = pick(publishedSections(model), this.section)!;
    await real.api.updateSite({ ...ids(real), defaultSiteSection: target });
    model.defaultSection = target;
    await verify(model, real);
  }
  toString() {
    return `setDefaultSection(${this.section})`;
  }
}
