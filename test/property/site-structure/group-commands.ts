import type fc from 'fast-check';
import { expect } from 'vitest';
import { containerOf, ids, moveIn, outcome, pick, publishedSections, verify, type Model, type Placement, type Real } from './model.js';
import { siblingsOf } from './section-commands.js';

/** The commands on section groups: add (with sections), move, delete, put a section in, take one out. */

const groupIds = (model: Model) => model.top.filter((entry) => entry.kind === 'group').map((entry) => entry.id);

/** Takes a section out of wherever it is (the top level or a group). */
function detach(model: Model, sectionId: string) {
  const siblings = siblingsOf(model, sectionId);
  siblings.write(siblings.list.filter((id) => id !== sectionId));
}

/** Adds a group holding some sections (picked, repeats dropped), in that order. */
export class AddGroup implements fc.AsyncCommand<Model, Real> {
  constructor(readonly sections: number[]) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const chosen = [...new Set(this.sections.map((n) => pick(publishedSections(model), n)).filter((id): id is string => id !== undefined))];
    const group = await real.api.addSectionGroupToSite({ ...ids(real), title: 'Group', sections: chosen });
    for (const id of chosen) detach(model, id);
    model.groups.set(group.id, chosen);
    model.top.push({ kind: 'group', id: group.id });
    await verify(model, real);
  }
  toString() {
    return `addGroup([${this.sections.join(', ')}])`;
  }
}

/** Moves a group to the end of the top level, or before or after an entry of it (a section or a group, maybe itself). */
export class MoveGroup implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly group: number,
    readonly mode: Placement['mode'],
    readonly target: number,
  ) {}
  check = (model: Readonly<Model>) => groupIds(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const moving = pick(groupIds(model), this.group)!;
    const target = pick(model.top, this.target)!;
    const placement: Placement = this.mode === 'end' ? { mode: 'end' } : { mode: this.mode, target: target.id };
    const siblings = siblingsOf(model, moving);
    const expected = moveIn(siblings.list, moving, placement);
    const type = target.kind === 'group' ? ('site-section-group' as const) : ('site-section' as const);
    const position = placement.mode === 'end' ? undefined : { [placement.mode]: { type, id: target.id } };
    const result = await outcome(() => real.api.moveSiteSectionGroup({ ...ids(real), siteSectionGroupId: moving, ...(position && { position }) }));
    expect('ok' in result ? 200 : result.status).toBe(expected.status);
    siblings.write(expected.list);
    await verify(model, real);
  }
  toString() {
    return `moveGroup(${this.group}, ${this.mode} ${this.target})`;
  }
}

/** Deletes a group: its sections take its place on the top level, in order. */
export class DeleteGroup implements fc.AsyncCommand<Model, Real> {
  constructor(readonly group: number) {}
  check = (model: Readonly<Model>) => groupIds(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const target = pick(groupIds(model), this.group)!;
    await real.api.deleteSiteSectionGroup({ ...ids(real), siteSectionGroupId: target });
    const members = model.groups.get(target)!;
    model.top = model.top.flatMap((entry) => (entry.id === target ? members.map((id) => ({ kind: 'section' as const, id })) : [entry]));
    model.groups.delete(target);
    await verify(model, real);
  }
  toString() {
    return `deleteGroup(${this.group})`;
  }
}

/** Puts a section at the end of a group (409 when it is already in it). */
export class AddSectionToGroup implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly section: number,
    readonly group: number,
  ) {}
  check = (model: Readonly<Model>) => model.sections.size > 0 && groupIds(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const section = pick(publishedSections(model), this.section)!;
    const group = pick(groupIds(model), this.group)!;
    const result = await outcome(() => real.api.addSectionToGroup({ ...ids(real), siteSectionGroupId: group, sectionId: section }));
    if (containerOf(model, section).group === group) {
      expect(result).toEqual({ status: 409 });
    } else {
      expect('ok' in result).toBe(true);
      detach(model, section);
      model.groups.get(group)!.push(section);
    }
    await verify(model, real);
  }
  toString() {
    return `addSectionToGroup(${this.section}, group ${this.group})`;
  }
}

/** Takes a section out of a group, to right after the group (404 for a section that is not in it). */
export class RemoveSectionFromGroup implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly group: number,
    readonly section: number,
  ) {}
  check = (model: Readonly<Model>) => model.sections.size > 0 && groupIds(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const group = pick(groupIds(model), this.group)!;
    const section = pick(publishedSections(model), this.section)!;
    const result = await outcome(() => real.api.removeSectionFromGroup({ ...ids(real), siteSectionGroupId: group, siteSectionId: section }));
    if (containerOf(model, section).group !== group) {
      expect(result).toEqual({ status: 404 });
    } else {
      expect('ok' in result).toBe(true);
      model.groups.set(group, model.groups.get(group)!.filter((id) => id !== section));
      const at = model.top.findIndex((entry) => entry.id === group);
      model.top.splice(at + 1, 0, { kind: 'section', id: section });
    }
    await verify(model, real);
  }
  toString() {
    return `removeSectionFromGroup(group ${this.group}, ${this.section})`;
  }
}
