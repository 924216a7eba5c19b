import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/core/clock.js';
import { contentGroup } from '../../src/core/collections/tree.js';
import { listSiblings } from '../../src/core/ordering/siblings.js';
import { createPlatform, type Api, type Platform } from '../../src/core/platform.js';
import { createMemoryStore } from '../../src/store/memory.js';
import { outcome } from './outcome.js';
import { runs } from './runs.js';

/**
 * Sibling order checked against a model (fast-check's musicPlayer pattern): random creates of spaces
 * and collections, moves (to another parent or not, before/after a sibling, between two, to the end,
 * relative to itself or to something that is not a sibling), deletes and restores of spaces, and
 * deletes of collections. After every step the order of every group of siblings, the sidebar-order
 * lists of spaces and collections and each collection's spaces must be what the model says.
 *
 * The model is plain arrays: per parent (`top` or a collection) the list of its items in order. A
 * move takes the item out of its array and splices it in right before/after the reference (the end
 * when there is none); a reference that is not in the target array, or the item itself, is a 400;
 * two references must be neighbours; a collection cannot go into itself or below (400); a move that
 * leaves the arrays as they were is a 409. A deleted space leaves its array; a restored one is
 * appended to its collection's (the top's when that collection is gone). Deleting a collection
 * removes its collections and deletes its spaces.
 */

const NUM_RUNS = runs(60);
const MAX_COLLECTIONS = 4;
const MAX_SPACES = 7;

type Kind = 'space' | 'collection';
interface Item {
  kind: Kind;
  n: number;
}
type Parent = number | null;

interface Model {
  /** Per space: its collection (null: the top level), and whether it is deleted. */
  spaces: { parent: Parent; deleted: boolean }[];
  /** Per collection: its parent, and whether it still exists. */
  collections: { parent: Parent; alive: boolean }[];
  /** The items of each parent in order: key `top` or `c<n>`. */
  groups: Map<string, Item[]>;
}

interface Real {
  platform: Platform;
  owner: Api;
  organizationId: string;
  spaceIds: string[];
  collectionIds: string[];
}

const keyOf = (parent: Parent) => (parent === null ? 'top' : `c${parent}`);
const group = (model: Model, parent: Parent) => {
  const key = keyOf(parent);
  if (!model.groups.has(key)) model.groups.set(key, []);
  return model.groups.get(key)!;
};
const same = (a: Item, b: Item) => a.kind === b.kind && a.n === b.n;
const liveItems = (model: Model): Item[] => [...model.groups.values()].flat();
const idOf = (real: Real, item: Item) => (item.kind === 'space' ? real.spaceIds[item.n] : real.collectionIds[item.n]);
const parentOf = (model: Model, item: Item): Parent => (item.kind === 'space' ? model.spaces[item.n].parent : model.collections[item.n].parent);
const liveCollections = (model: Model) => model.collections.flatMap((c, n) => (c.alive ? [n] : []));

/** Whether collection `n` is `ancestor` or lies inside it. */
function within(model: Model, n: number, ancestor: number): boolean {
  for (let at: Parent = n; at !== null; at = model.collections[at].parent) if (at === ancestor) return true;
  return false;
}

/** Items in sidebar order (depth first) below a parent, keeping those of one kind. */
function preorder(model: Model, parent: Parent, kind: Kind): Item[] {
  return group(model, parent).flatMap((item) => [
    ...(item.kind === kind ? [item] : []),
    ...(item.kind === 'collection' ? preorder(model, item.n, kind) : []),
  ]);
}

/** Compares every observable order with the model. */
async function verify(model: Model, real: Real) {
  const { owner, organizationId } = real;
  for (const parent of [null, ...liveCollections(model)]) {
    const siblings = await real.platform.store.read((tx) =>
      listSiblings(tx, contentGroup(organizationId, parent === null ? undefined : real.collectionIds[parent])),
    );
    const expected = group(model, parent).map((item) => `${item.kind}:${idOf(real, item)}`);
    expect(siblings.map((s) => `${s.kind}:${s.record.id}`), `siblings of ${keyOf(parent)}`).toEqual(expected);
    if (parent !== null) {
      const spaces = await owner.listCollectionSpaces({ collectionId: real.collectionIds[parent], limit: 1000 });
      const own = group(model, parent).filter((item) => item.kind === 'space');
      expect(spaces.items.map((s) => s.id)).toEqual(own.map((item) => idOf(real, item)));
    }
  }
  const spaces = await owner.listSpaces({ organizationId, limit: 1000 });
  expect(spaces.items.map((s) => s.id), 'sidebar order of spaces').toEqual(preorder(model, null, 'space').map((item) => idOf(real, item)));
  const collections = await owner.listCollections({ organizationId, limit: 1000 });
  expect(collections.items.map((c) => c.id)).toEqual(preorder(model, null, 'collection').map((item) => idOf(real, item)));
  const top = await owner.listCollections({ organizationId, nested: false });
  expect(top.items.map((c) => c.id)).toEqual(group(model, null).filter((i) => i.kind === 'collection').map((item) => idOf(real, item)));
}

/** Picks a parent: the top level or a live collection, by position. */
function pickParent(model: Model, pick: number): Parent {
  const options: Parent[] = [null, ...liveCollections(model)];
  return options[pick % options.length];
}

class CreateSpace implements fc.AsyncCommand<Model, Real> {
  constructor(readonly parentPick: number) {}
  check = (model: Readonly<Model>) => model.spaces.length < MAX_SPACES;
  async run(model: Model, real: Real) {
    const parent = pickParent(model, this.parentPick);
    const created = await real.owner.createSpace({
      organizationId: real.organizationId,
      ...(parent !== null && { parent: real.collectionIds[parent] }),
    });
    real.spaceIds.push(created.id);
    model.spaces.push({ parent, deleted: false });
    group(model, parent).push({ kind: 'space', n: model.spaces.length - 1 });
    await verify(model, real);
  }
  toString = () => `createSpace(${this.parentPick})`;
}

class CreateCollection implements fc.AsyncCommand<Model, Real> {
  constructor(readonly parentPick: number) {}
  check = (model: Readonly<Model>) => model.collections.length < MAX_COLLECTIONS;
  async run(model: Model, real: Real) {
    const parent = pickParent(model, this.parentPick);
    const created = await real.owner.createCollection({
      organizationId: real.organizationId,
      ...(parent !== null && { parent: real.collectionIds[parent] }),
    });
    real.collectionIds.push(created.id);
    model.collections.push({ parent, alive: true });
    group(model, parent).push({ kind: 'collection', n: model.collections.length - 1 });
    await verify(model, real);
  }
  toString = () => `createCollection(${this.parentPick})`;
}

type ParentChoice = { to: 'keep' } | { to: 'top' } | { to: 'collection'; pick: number };
type PositionChoice = 'none' | 'before' | 'after' | 'both' | 'self';

class Move implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly itemPick: number,
    readonly parent: ParentChoice,
    readonly position: PositionChoice,
    readonly refPick: number,
    readonly refPick2: number,
    /** Whether references are drawn from every item (mostly not siblings) or from the target's items. */
    readonly anywhere: boolean,
  ) {}
  check = (model: Readonly<Model>) => liveItems(model as Model).length > 0;
  async run(model: Model, real: Real) {
    const items = liveItems(model);
    const item = items[this.itemPick % items.length];
    const current = parentOf(model, item);
    const live = liveCollections(model);
    const target: Parent =
      this.parent.to === 'keep' ? current : this.parent.to === 'top' ? null : live.length ? live[this.parent.pick % live.length] : null;
    const siblings = group(model, target).filter((sibling) => !same(sibling, item));
    const pool = this.anywhere ? items : siblings;
    // No sibling to point at: go to the end (no position), unless drawing references from anywhere.
    const position: PositionChoice = pool.length === 0 && this.position !== 'self' ? 'none' : this.position;
    // `both` names two neighbours of the pool (unless drawn from anywhere): after pool[i], before pool[i + 1].
    const i = position === 'both' && !this.anywhere ? Math.max(0, Math.min(this.refPick % pool.length, pool.length - 2)) : this.refPick % pool.length;
    const after = position === 'after' || position === 'both' ? pool[i] : undefined;
    const second = this.anywhere ? pool[this.refPick2 % pool.length] : pool[Math.min(i + 1, pool.length - 1)];
    const before = position === 'before' ? pool[i] : position === 'both' ? second : position === 'self' ? item : undefined;
    const pointer = (ref: Item) => (ref.kind === 'space' ? { type: 'space' as const, space: idOf(real, ref) } : { type: 'collection' as const, collection: idOf(real, ref) });
    const body = {
      ...(this.parent.to !== 'keep' && { parent: target === null ? null : real.collectionIds[target] }),
      ...(position !== 'none' && { position: { ...(after && { after: pointer(after) }), ...(before && { before: pointer(before) }) } }),
    };
    const id = idOf(real, item);
    const result = await outcome(() =>
      item.kind === 'space' ? real.owner.moveSpace({ spaceId: id, ...body }) : real.owner.moveCollection({ collectionId: id, ...body }),
    );

    // The model: the same move on plain arrays.
    let expected: number | 'ok' = 'ok';
    const others = group(model, target).filter((sibling) => !same(sibling, item));
    let slot = others.length;
    if (this.parent.to === 'keep' && position === 'none') expected = 400;
    else if (item.kind === 'collection' && target !== null && within(model, target, item.n)) expected = 400;
    else {
      const find = (ref: Item) => (same(ref, item) ? -1 : others.findIndex((sibling) => same(sibling, ref)));
      if (after) slot = find(after) + 1;
      if (after && slot === 0) expected = 400;
      if (before) {
        const index = find(before);
        if (index < 0 || (after && index !== slot)) expected = 400;
        slot = index;
      }
    }
    if (expected === 'ok') {
      const arranged = [...others.slice(0, slot), item, ...others.slice(slot)];
      const unchanged = target === current && arranged.every((sibling, i) => same(sibling, group(model, current)[i]));
      if (unchanged) expected = 409;
      else {
        model.groups.set(keyOf(current), group(model, current).filter((sibling) => !same(sibling, item)));
        model.groups.set(keyOf(target), arranged);
        if (item.kind === 'space') model.spaces[item.n].parent = target;
        else model.collections[item.n].parent = target;
      }
    }
    expect(result, this.toString()).toBe(expected);
    await verify(model, real);
  }
  toString = () => `move(${this.itemPick}, ${JSON.stringify(this.parent)}, ${this.position}, ${this.refPick}, ${this.refPick2}${this.anywhere ? ', anywhere' : ''})`;
}

class DeleteSpace implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.spaces.some((s) => !s.deleted);
  async run(model: Model, real: Real) {
    const live = model.spaces.flatMap((s, n) => (s.deleted ? [] : [n]));
    const n = live[this.pick % live.length];
    await real.owner.deleteSpace({ spaceId: real.spaceIds[n] });
    model.spaces[n].deleted = true;
    const parent = model.spaces[n].parent;
    model.groups.set(keyOf(parent), group(model, parent).filter((item) => !same(item, { kind: 'space', n })));
    await verify(model, real);
  }
  toString = () => `deleteSpace(${this.pick})`;
}

class RestoreSpace implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.spaces.some((s) => s.deleted);
  async run(model: Model, real: Real) {
    const deleted = model.spaces.flatMap((s, n) => (s.deleted ? [n] : []));
    const n = deleted[this.pick % deleted.length];
    await real.owner.restoreSpace({ spaceId: real.spaceIds[n] });
    const space = model.spaces[n];
    if (space.parent !== null && !model.collections[space.parent].alive) space.parent = null;
    space.deleted = false;
    group(model, space.parent).push({ kind: 'space', n });
    await verify(model, real);
  }
  toString = () => `restoreSpace(${this.pick})`;
}

class DeleteCollection implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (model: Readonly<Model>) => model.collections.some((c) => c.alive);
  async run(model: Model, real: Real) {
    const live = liveCollections(model);
    const n = live[this.pick % live.length];
    await real.owner.deleteCollection({ collectionId: real.collectionIds[n] });
    const parent = model.collections[n].parent;
    model.groups.set(keyOf(parent), group(model, parent).filter((item) => !same(item, { kind: 'collection', n })));
    for (const m of live.filter((m) => within(model, m, n))) {
      for (const item of group(model, m)) if (item.kind === 'space') model.spaces[item.n].deleted = true;
      model.groups.delete(keyOf(m));
      model.collections[m].alive = false;
    }
    await verify(model, real);
  }
  toString = () => `deleteCollection(${this.pick})`;
}

const pick = fc.nat({ max: 20 });
const commands = [
  pick.map((p) => new CreateSpace(p)),
  pick.map((p) => new CreateCollection(p)),
  fc
    .tuple(
      pick,
      fc.oneof(
        fc.constant<ParentChoice>({ to: 'keep' }),
        fc.constant<ParentChoice>({ to: 'top' }),
        pick.map<ParentChoice>((p) => ({ to: 'collection', pick: p })),
      ),
      fc.constantFrom<PositionChoice>('none', 'before', 'before', 'after', 'after', 'both', 'both', 'self'),
      pick,
      pick,
      fc.constantFrom(false, false, false, true),
    )
    .map(([item, parent, position, ref, ref2, anywhere]) => new Move(item, parent, position, ref, ref2, anywhere)),
  // Between two neighbours of the target.
  fc
    .tuple(pick, fc.oneof(fc.constant<ParentChoice>({ to: 'keep' }), pick.map<ParentChoice>((p) => ({ to: 'collection', pick: p }))), pick)
    .map(([item, parent, ref]) => new Move(item, parent, 'both', ref, ref + 1, false)),
  pick.map((p) => new DeleteSpace(p)),
  pick.map((p) => new RestoreSpace(p)),
  pick.map((p) => new DeleteCollection(p)),
];

async function setup(): Promise<{ model: Model; real: Real }> {
  const platform = createPlatform({ store: createMemoryStore(), clock: manualClock('2026-03-01T10:00:00.000Z'), signingKey: 'property-key' });
  const init = await platform.initialize({ title: 'Acme Docs', email: 'owner@acme.test', name: 'Olive Owner' });
  return {
    model: { spaces: [], collections: [], groups: new Map([['top', []]]) },
    real: { platform, owner: platform.as(init.userId), organizationId: init.organizationId, spaceIds: [], collectionIds: [] },
  };
}

describe('move ordering against a model', () => {
  it('gives the same order as the same steps on plain arrays', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: 'max' }), async (cmds) => {
        const { model, real } = await setup();
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await real.platform.close();
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);
});
