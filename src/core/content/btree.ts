import type { ReadTransaction, WriteTransaction } from '../../store/types.js';
import { TABLES } from '../records.js';

/**
 * A persistent sorted map (a copy-on-write B+tree) whose nodes are immutable store records. A revision
 * holds the roots of its maps; a change rewrites only the nodes on the path from the root to each changed
 * key and shares every other node with the revision it came from, so an edit to one page of a 10,000-page
 * space writes about three small records. Keys are strings compared by code unit.
 *
 * Inner nodes keep, for each child, a separator key (every key of child i is >= keys[i] and < keys[i + 1];
 * keys[0] stands for minus infinity) and the number of entries under it, so size, rank and "the n-th
 * entry" are O(log n).
 */

/** The most entries (leaf) or children (inner) a node holds; a node that grows past it splits in two. */
export const MAX_NODE_ENTRIES = 64;

/** The root of a map: its root node (null: empty) and its number of entries. */
export interface MapRoot {
  readonly node: string | null;
  readonly size: number;
}

/** The root of an empty map. */
export const EMPTY_MAP: MapRoot = { node: null, size: 0 };

/** A leaf: sorted keys and their values. */
type Leaf = {
  id: string;
  spaceId: string;
  leaf: true;
  keys: string[];
  values: unknown[];
};

/** An inner node: separator keys, child node ids and the number of entries under each child. */
type Inner = {
  id: string;
  spaceId: string;
  leaf: false;
  /** The height above the leaves (1: its children are leaves); a shared subtree has it in both trees. */
  level: number;
  keys: string[];
  children: string[];
  sizes: number[];
};

type Node = Leaf | Inner;

/** A stored node of a content map (TABLES.contentNodes). */
export type ContentNodeRecord = Readonly<Node>;

/** What a recursive change did below a node. */
interface Outcome {
  /** The node's id after the change (a new one when it was copied). */
  id: string;
  changed: boolean;
  /** The change in the number of entries below: +1 (added), -1 (removed), 0. */
  delta: number;
  /** A new right sibling split off the node, with its separator key. */
  split?: { key: string; id: string };
}

/** The index of the first key >= key. */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child of an inner node whose range holds key. */
function childIndex(keys: readonly string[], key: string): number {
  let lo = 1;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

const sizeOf = (node: Node): number => (node.leaf ? node.keys.length : node.sizes.reduce((sum, size) => sum + size, 0));
const widthOf = (node: Node): number => node.keys.length;
const levelOf = (node: Node): number => (node.leaf ? 0 : node.level);
const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * A map over one root: reads through a transaction, writes copy-on-write into nodes of its own that
 * `save` stores. The nodes it creates are plain mutable objects until saved; the stored ones are never
 * changed.
 */
export class TreeMap {
  private rootId: string | null;
  private count: number;
  /** Nodes made by this map and not saved yet, by id. */
  private readonly fresh = new Map<string, Node>();

  /** The most entries a node this map writes holds (tests use small nodes to reach deep trees). */
  private readonly maxEntries: number;

  constructor(
    private readonly tx: ReadTransaction,
    root: MapRoot,
    private readonly spaceId: string,
    private readonly newId: () => string,
    options: { readonly maxEntries?: number } = {},
  ) {
    this.rootId = root.node;
    this.count = root.size;
    this.maxEntries = options.maxEntries ?? MAX_NODE_ENTRIES;
  }

  /** The number of entries. */
  get size(): number {
    return this.count;
  }

  /** The root as it stands (valid to store only after `save`). */
  get root(): MapRoot {
    return { node: this.rootId, size: this.count };
  }

  private async node(id: string): Promise<Node> {
    const fresh = this.fresh.get(id);
    if (fresh) return fresh;
    const stored = (await this.tx.get(TABLES.contentNodes, id)) as Node | undefined;
    if (!stored) throw new Error(`Content map node ${id} is missing`);
    return stored;
  }

  /** A node this map may change: itself when it is fresh, else a fresh copy under a new id. */
  private writable(node: Node): Node {
    if (this.fresh.get(node.id) === node) return node;
    const copy: Node = node.leaf
      ? { id: this.newId(), spaceId: this.spaceId, leaf: true, keys: [...node.keys], values: [...node.values] }
      : { ...node, id: this.newId(), spaceId: this.spaceId, keys: [...node.keys], children: [...node.children], sizes: [...node.sizes] };
    this.fresh.set(copy.id, copy);
    return copy;
  }

  private create(node: Omit<Leaf, 'id' | 'spaceId'> | Omit<Inner, 'id' | 'spaceId'>): Node {
    const made = { ...node, id: this.newId(), spaceId: this.spaceId } as Node;
    this.fresh.set(made.id, made);
    return made;
  }

  /** The value of a key, or undefined. */
  async get(key: string): Promise<unknown> {
    if (this.rootId === null) return undefined;
    let node = await this.node(this.rootId);
    while (!node.leaf) node = await this.node(node.children[childIndex(node.keys, key)]);
    const at = lowerBound(node.keys, key);
    return node.keys[at] === key ? node.values[at] : undefined;
  }

  /** Whether a key is in the map. */
  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  /** Sets a key's value (values are JSON; undefined is not a value). */
  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) throw new Error('TreeMap.set: undefined is not a value');
    if (this.rootId === null) {
      this.rootId = this.create({ leaf: true, keys: [key], values: [value] }).id;
      this.count = 1;
      return;
    }
    const outcome = await this.setIn(this.rootId, key, value);
    this.count += outcome.delta;
    this.rootId = outcome.id;
    if (outcome.split) this.growRoot(outcome.id, outcome.split);
  }

  private growRoot(leftId: string, split: { key: string; id: string }): void {
    const left = this.fresh.get(leftId)!;
    const right = this.fresh.get(split.id)!;
    this.rootId = this.create({
      leaf: false,
      level: levelOf(left) + 1,
      keys: ['', split.key],
      children: [leftId, split.id],
      sizes: [sizeOf(left), sizeOf(right)],
    }).id;
  }

  private async setIn(id: string, key: string, value: unknown): Promise<Outcome> {
    const node = await this.node(id);
    if (node.leaf) {
      const at = lowerBound(node.keys, key);
      const exists = node.keys[at] === key;
      if (exists && sameValue(node.values[at], value)) return { id, changed: false, delta: 0 };
      const leaf = this.writable(node) as Leaf;
      if (exists) leaf.values[at] = value;
      else {
        leaf.keys.splice(at, 0, key);
        leaf.values.splice(at, 0, value);
      }
      return { id: leaf.id, changed: true, delta: exists ? 0 : 1, split: this.splitIfFull(leaf) };
    }
    const at = childIndex(node.keys, key);
    const below = await this.setIn(node.children[at], key, value);
    if (!below.changed) return { id, changed: false, delta: 0 };
    const inner = this.writable(node) as Inner;
    inner.children[at] = below.id;
    inner.sizes[at] += below.delta;
    if (below.split) {
      const right = this.fresh.get(below.split.id)!;
      inner.sizes[at] -= sizeOf(right);
      inner.keys.splice(at + 1, 0, below.split.key);
      inner.children.splice(at + 1, 0, below.split.id);
      inner.sizes.splice(at + 1, 0, sizeOf(right));
    }
    return { id: inner.id, changed: true, delta: below.delta, split: this.splitIfFull(inner) };
  }

  /** Splits a fresh node that grew past the maximum into two halves; returns the right half. */
  private splitIfFull(node: Node): Outcome['split'] {
    if (widthOf(node) <= this.maxEntries) return undefined;
    const half = widthOf(node) >>> 1;
    const keys = node.keys.splice(half);
    const right = node.leaf
      ? this.create({ leaf: true, keys, values: node.values.splice(half) })
      : this.create({ leaf: false, level: node.level, keys, children: node.children.splice(half), sizes: node.sizes.splice(half) });
    return { key: keys[0], id: right.id };
  }

  /** Removes a key; resolves to whether it was there. */
  async delete(key: string): Promise<boolean> {
    if (this.rootId === null) return false;
    const outcome = await this.deleteIn(this.rootId, key);
    if (!outcome.changed) return false;
    this.count += outcome.delta;
    let root: Node | undefined = this.count === 0 ? undefined : await this.node(outcome.id);
    // A root with one child is that child: the tree gets lower as it empties.
    while (root && !root.leaf && root.children.length === 1) root = await this.node(root.children[0]);
    this.rootId = root ? root.id : null;
    return true;
  }

  private async deleteIn(id: string, key: string): Promise<Outcome> {
    const node = await this.node(id);
    if (node.leaf) {
      const at = lowerBound(node.keys, key);
      if (node.keys[at] !== key) return { id, changed: false, delta: 0 };
      const leaf = this.writable(node) as Leaf;
      leaf.keys.splice(at, 1);
      leaf.values.splice(at, 1);
      return { id: leaf.id, changed: true, delta: -1 };
    }
    const at = childIndex(node.keys, key);
    const below = await this.deleteIn(node.children[at], key);
    if (!below.changed) return { id, changed: false, delta: 0 };
    const inner = this.writable(node) as Inner;
    inner.children[at] = below.id;
    inner.sizes[at] += below.delta;
    if (inner.sizes[at] === 0) {
      inner.keys.splice(at, 1);
      inner.children.splice(at, 1);
      inner.sizes.splice(at, 1);
    } else await this.mergeIfSmall(inner, at);
    return { id: inner.id, changed: true, delta: below.delta };
  }

  /** Merges child `at` of a fresh inner node with a neighbour when it is small and both fit in one node. */
  private async mergeIfSmall(parent: Inner, at: number): Promise<void> {
    const child = await this.node(parent.children[at]);
    // Below a quarter full, a node joins a neighbour when both fit in one.
    if (widthOf(child) >= this.maxEntries / 4 || parent.children.length < 2) return;
    const leftAt = at > 0 ? at - 1 : at;
    const left = await this.node(parent.children[leftAt]);
    const right = await this.node(parent.children[leftAt + 1]);
    if (widthOf(left) + widthOf(right) > this.maxEntries) return;
    const merged = this.writable(left);
    if (merged.leaf && right.leaf) {
      merged.keys.push(...right.keys);
      merged.values.push(...right.values);
    } else if (!merged.leaf && !right.leaf) {
      // The right node's first separator stands for minus infinity: the parent's separator replaces it.
      merged.keys.push(parent.keys[leftAt + 1], ...right.keys.slice(1));
      merged.children.push(...right.children);
      merged.sizes.push(...right.sizes);
    }
    parent.children[leftAt] = merged.id;
    parent.sizes[leftAt] += parent.sizes[leftAt + 1];
    parent.keys.splice(leftAt + 1, 1);
    parent.children.splice(leftAt + 1, 1);
    parent.sizes.splice(leftAt + 1, 1);
  }

  /** The entries with from <= key < to (both optional), in key order. */
  async *entries(from?: string, to?: string): AsyncGenerator<[string, unknown]> {
    if (this.rootId !== null) yield* this.walk(this.rootId, from, to);
  }

  private async *walk(id: string, from: string | undefined, to: string | undefined): AsyncGenerator<[string, unknown]> {
    const node = await this.node(id);
    if (node.leaf) {
      for (let i = from === undefined ? 0 : lowerBound(node.keys, from); i < node.keys.length; i++) {
        if (to !== undefined && node.keys[i] >= to) return;
        yield [node.keys[i], node.values[i]];
      }
      return;
    }
    for (let i = from === undefined ? 0 : childIndex(node.keys, from); i < node.children.length; i++) {
      if (to !== undefined && i > 0 && node.keys[i] >= to) return;
      yield* this.walk(node.children[i], from, to);
    }
  }

  /** How many keys are smaller than `key`. */
  async rank(key: string): Promise<number> {
    if (this.rootId === null) return 0;
    let rank = 0;
    let node = await this.node(this.rootId);
    while (!node.leaf) {
      const at = childIndex(node.keys, key);
      for (let i = 0; i < at; i++) rank += node.sizes[i];
      node = await this.node(node.children[at]);
    }
    return rank + lowerBound(node.keys, key);
  }

  /** The entry at a zero-based position in key order, or undefined past the end. */
  async at(index: number): Promise<[string, unknown] | undefined> {
    if (this.rootId === null || index < 0 || index >= this.count) return undefined;
    let node = await this.node(this.rootId);
    let rest = index;
    while (!node.leaf) {
      let i = 0;
      while (i < node.sizes.length - 1 && rest >= node.sizes[i]) rest -= node.sizes[i++];
      node = await this.node(node.children[i]);
    }
    return [node.keys[rest], node.values[rest]];
  }

  /**
   * Stores the nodes this map made that its root still reaches, and returns the root to keep. After it,
   * those nodes are stored (frozen): a later change copies them again.
   */
  async save(tx: WriteTransaction, pace: () => Promise<void> | undefined = () => undefined): Promise<MapRoot> {
    const pending = this.rootId === null ? [] : [this.rootId];
    while (pending.length > 0) {
      const node = this.fresh.get(pending.pop()!);
      if (!node) continue;
      if (!node.leaf) pending.push(...node.children);
      await pace();
      await tx.insert(TABLES.contentNodes, node);
    }
    this.fresh.clear();
    return this.root;
  }
}

/** Reads a stored map without changing it (no ids needed). */
export function readMap(tx: ReadTransaction, root: MapRoot): TreeMap {
  return new TreeMap(tx, root, '', () => {
    throw new Error('readMap: this map is read-only');
  });
}

/** Every node id a map's root reaches, for copying or checking a map. */
export async function nodeIdsOf(tx: ReadTransaction, root: MapRoot): Promise<string[]> {
  const ids: string[] = [];
  const pending = root.node === null ? [] : [root.node];
  while (pending.length > 0) {
    const id = pending.pop()!;
    ids.push(id);
    const node = (await tx.get(TABLES.contentNodes, id)) as Node | undefined;
    if (node && !node.leaf) pending.push(...node.children);
  }
  return ids;
}

/** How many nodes visitLeafValues reads together. */
const VISIT_BATCH = 500;

/**
 * Calls `visit` with the values of every leaf the roots reach, reading each node once however many roots
 * share it (`seen` carries over between calls, so revisions that share most of a map cost its new nodes
 * only). Reads a level at a time, in batches read together (one statement on PostgreSQL).
 */
export async function visitLeafValues(tx: ReadTransaction, roots: readonly MapRoot[], seen: Set<string>, visit: (values: readonly unknown[]) => void): Promise<void> {
  let level: string[] = [];
  const enqueue = (id: string | null) => {
    if (id === null || seen.has(id)) return;
    seen.add(id);
    level.push(id);
  };
  roots.forEach((root) => enqueue(root.node));
  while (level.length > 0) {
    const current = level;
    level = [];
    for (let start = 0; start < current.length; start += VISIT_BATCH) {
      const nodes = (await tx.getMany(TABLES.contentNodes, current.slice(start, start + VISIT_BATCH))) as (Node | undefined)[];
      for (const node of nodes) {
        if (!node) continue;
        if (node.leaf) visit(node.values);
        else node.children.forEach(enqueue);
      }
    }
  }
}

/**
 * Copies a stored map into another space: every node under new ids, values passed through `mapValue`
 * (e.g. to point page entries at copied documents). The copy shares nothing with the original.
 */
export async function copyMap(
  tx: WriteTransaction,
  root: MapRoot,
  spaceId: string,
  newId: () => string,
  mapValue: (value: unknown) => unknown = (value) => value,
): Promise<MapRoot> {
  async function copy(id: string): Promise<string> {
    const node = (await tx.get(TABLES.contentNodes, id)) as Node;
    const copied: Node = node.leaf
      ? { id: newId(), spaceId, leaf: true, keys: [...node.keys], values: node.values.map(mapValue) }
      : { ...node, id: newId(), spaceId, keys: [...node.keys], children: await Promise.all(node.children.map(copy)), sizes: [...node.sizes] };
    await tx.insert(TABLES.contentNodes, copied);
    return copied.id;
  }
  return { node: root.node === null ? null : await copy(root.node), size: root.size };
}

/** The differences between two maps, by key. */
export interface MapDiff {
  readonly removed: [key: string, value: unknown][];
  readonly added: [key: string, value: unknown][];
  readonly changed: [key: string, before: unknown, after: unknown][];
}

/**
 * The differences between two maps: keys only in `a`, only in `b`, and in both with different values,
 * each sorted by key. Both trees are walked together from the highest level down and a node that both
 * reach is skipped with everything under it before it is read (a child's id and level are known from its
 * parent), so the nodes read are those that differ: the cost follows the size of the change, not of the map.
 */
export async function diffMaps(tx: ReadTransaction, a: MapRoot, b: MapRoot): Promise<MapDiff> {
  // The same root (a map neither side changed, such as the files of most revisions): nothing to read.
  if (a.node === b.node) return { removed: [], added: [], changed: [] };
  const load = async (id: string) => (await tx.get(TABLES.contentNodes, id)) as Node;
  /** A node on a frontier: its id and level, and the node once read. */
  type Ref = { id: string; level: number; node?: Node };
  const rootOf = async (root: MapRoot): Promise<Ref[]> => {
    if (root.node === null) return [];
    const node = await load(root.node);
    return [{ id: node.id, level: levelOf(node), node }];
  };
  let left = await rootOf(a);
  let right = await rootOf(b);
  for (;;) {
    // A node both sides reach is the same subtree on both: drop it from both, unread.
    const inRight = new Set(right.map((ref) => ref.id));
    const shared = new Set(left.filter((ref) => inRight.has(ref.id)).map((ref) => ref.id));
    left = left.filter((ref) => !shared.has(ref.id));
    right = right.filter((ref) => !shared.has(ref.id));
    const top = Math.max(0, ...left.map((ref) => ref.level), ...right.map((ref) => ref.level));
    if (top === 0) break;
    // Expand only the highest level: a shared node is then on both frontiers when its level comes.
    const expand = async (refs: Ref[]) =>
      (
        await Promise.all(
          refs.map(async (ref) => {
            if (ref.level !== top) return [ref];
            const node = (ref.node ?? (await load(ref.id))) as Inner;
            return node.children.map((id) => ({ id, level: top - 1 }));
          }),
        )
      ).flat();
    left = await expand(left);
    right = await expand(right);
  }
  const leaves = (refs: Ref[]) => Promise.all(refs.map(async (ref) => ref.node ?? (await load(ref.id))));
  const [leftLeaves, rightLeaves] = [await leaves(left), await leaves(right)];
  const entriesOf = (nodes: Node[]) => {
    const out = new Map<string, unknown>();
    for (const node of nodes as Leaf[]) node.keys.forEach((key, i) => out.set(key, node.values[i]));
    return out;
  };
  const before = entriesOf(leftLeaves);
  const after = entriesOf(rightLeaves);
  const diff: MapDiff = { removed: [], added: [], changed: [] };
  for (const [key, value] of before) {
    if (!after.has(key)) diff.removed.push([key, value]);
    else if (!sameValue(value, after.get(key))) diff.changed.push([key, value, after.get(key)]);
  }
  for (const [key, value] of after) if (!before.has(key)) diff.added.push([key, value]);
  const byKey = (x: [string, ...unknown[]], y: [string, ...unknown[]]) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0);
  diff.removed.sort(byKey);
  diff.added.sort(byKey);
  diff.changed.sort(byKey);
  return diff;
}
