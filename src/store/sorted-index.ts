import { compareKeys, compareScalars } from './order.js';
import type { IndexDefinition, Scalar, SortKey, StoredRecord } from './types.js';

export { compareKeys, compareScalars };

/** Whether a sort key begins with the values of `prefix`. */
export function startsWith(key: SortKey, prefix: readonly Scalar[]): boolean {
  if (key.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (compareScalars(key[i], prefix[i]) !== 0) return false;
  return true;
}

/** The position of a record in an index, or undefined when the record is not in it. */
export function sortKeyOf(def: IndexDefinition, record: StoredRecord): SortKey | undefined {
  const key: Scalar[] = [];
  for (const field of def.order) {
    const value = record[field];
    if (value === undefined) return undefined;
    key.push(value as Scalar);
  }
  key.push(record.id);
  return key;
}

/** The group a record belongs to in an index, or undefined when it is in none. */
export function groupOf(def: IndexDefinition, record: StoredRecord): Scalar | undefined {
  if (def.by === undefined) return null;
  const value = record[def.by];
  return value === undefined ? undefined : (value as Scalar);
}

const names = new WeakMap<IndexDefinition, string>();

/** A stable name for an index definition, to find its built copy; computed once per definition object. */
export function indexName(def: IndexDefinition): string {
  let name = names.get(def);
  if (name === undefined) names.set(def, (name = `${def.by ?? ''}|${def.order.join(',')}`));
  return name;
}

interface Entry {
  key: SortKey;
  id: string;
}

/** Entries per block of a group before the block is split in two (see SortedIndex). */
const BLOCK_SIZE = 512;

/**
 * One group of an index: its entries in key order, cut into blocks of at most `max` entries. Every
 * entry of a block sorts before every entry of the next, and no block is empty.
 */
interface Group {
  blocks: Entry[][];
  size: number;
}

/** A place in a group: a block and an offset in it (`block === blocks.length` is the end). */
interface Position {
  block: number;
  offset: number;
}

/**
 * One built index: per group, the entries sorted by key, in blocks of at most 512. Insert and remove
 * are a binary search over the blocks, another in one block and a splice of that block; a page is
 * the same search and a walk from there.
 *
 * Why blocks: one flat sorted array per group made every insert and remove a splice that moves half
 * of the group. At 100,000 members of one organization that was most of the CPU of a write
 * (2 splices of ~50,000 entries per changed member; durable writes fell from ~23,000/s at 1,000
 * members to ~3,000/s). With blocks a splice moves at most a block, and the blocks array itself
 * changes only when a block splits, merges or empties.
 */
export class SortedIndex {
  private readonly groups = new Map<Scalar, Group>();

  /** `max` is the most entries a block holds; tests make it small to exercise splits and merges. */
  constructor(
    readonly def: IndexDefinition,
    private readonly max = BLOCK_SIZE,
  ) {}

  /** Adds a record (no-op when it is not indexable). */
  add(record: StoredRecord): void {
    const value = groupOf(this.def, record);
    const key = sortKeyOf(this.def, record);
    if (value === undefined || key === undefined) return;
    let group = this.groups.get(value);
    if (!group) this.groups.set(value, (group = { blocks: [], size: 0 }));
    group.size++;
    const { blocks } = group;
    if (blocks.length === 0) {
      blocks.push([{ key, id: record.id }]);
      return;
    }
    // Into the first block whose last key is not below the new one, or at the end of the last block.
    const at = Math.min(firstBlockNotBelow(blocks, key, false), blocks.length - 1);
    const block = blocks[at];
    block.splice(lowerBound(block, key), 0, { key, id: record.id });
    if (block.length > this.max) blocks.splice(at, 1, block.slice(0, block.length >> 1), block.slice(block.length >> 1));
  }

  /** Removes a record as it was stored (no-op when it was not indexed). */
  remove(record: StoredRecord): void {
    const value = groupOf(this.def, record);
    const key = sortKeyOf(this.def, record);
    if (value === undefined || key === undefined) return;
    const group = this.groups.get(value);
    if (!group) return;
    const { blocks } = group;
    const at = firstBlockNotBelow(blocks, key, false);
    if (at === blocks.length) return;
    const block = blocks[at];
    const offset = lowerBound(block, key);
    if (offset === block.length || block[offset].id !== record.id) return;
    block.splice(offset, 1);
    group.size--;
    if (group.size === 0) this.groups.delete(value);
    else if (block.length === 0) blocks.splice(at, 1);
    else if (block.length < this.max >> 2) this.mergeSmall(blocks, at);
  }

  /** The ids of a group in listing order, starting strictly after `after`. */
  *ids(value: Scalar, order: 'asc' | 'desc', after?: SortKey): Generator<string> {
    const group = this.groups.get(value);
    if (!group) return;
    const { blocks } = group;
    if (order === 'asc') {
      let { block, offset } = after ? position(blocks, after, true) : { block: 0, offset: 0 };
      for (; block < blocks.length; block++, offset = 0) {
        const entries = blocks[block];
        for (let i = offset; i < entries.length; i++) yield entries[i].id;
      }
    } else {
      // From the last entry strictly before `after` (the one before its lower bound), or the very last.
      let { block, offset } = after ? position(blocks, after, false) : { block: blocks.length, offset: 0 };
      offset--;
      while (offset < 0 && block > 0) offset = blocks[--block].length - 1;
      if (offset < 0) return;
      for (; block >= 0; block--) {
        const entries = blocks[block];
        for (let i = offset; i >= 0; i--) yield entries[i].id;
        if (block > 0) offset = blocks[block - 1].length - 1;
      }
    }
  }

  /** The ids of a group whose keys begin with `prefix`, ascending: a contiguous range of it. */
  rangeIds(value: Scalar, prefix: readonly Scalar[]): string[] {
    const ids: string[] = [];
    const group = this.groups.get(value);
    if (!group) return ids;
    const { blocks } = group;
    let { block, offset } = position(blocks, prefix, false);
    for (; block < blocks.length; block++, offset = 0) {
      const entries = blocks[block];
      for (let i = offset; i < entries.length; i++) {
        if (!startsWith(entries[i].key, prefix)) return ids;
        ids.push(entries[i].id);
      }
    }
    return ids;
  }

  /** How many records a group holds. */
  size(value: Scalar): number {
    return this.groups.get(value)?.size ?? 0;
  }

  /** Folds a block that has shrunk below a quarter of the maximum into its smaller neighbour, when both fit in one. */
  private mergeSmall(blocks: Entry[][], at: number): void {
    const before = at > 0 ? blocks[at - 1].length : Infinity;
    const after = at + 1 < blocks.length ? blocks[at + 1].length : Infinity;
    if (before === Infinity && after === Infinity) return;
    const first = before <= after ? at - 1 : at;
    if (blocks[first].length + blocks[first + 1].length > this.max) return;
    blocks.splice(first, 2, blocks[first].concat(blocks[first + 1]));
  }
}

/**
 * The first block whose last key is >= `key` (> `key` when `strict`): the block where the lower
 * (upper) bound of `key` lies. `blocks.length` when every key is below (not above) it.
 */
function firstBlockNotBelow(blocks: Entry[][], key: SortKey, strict: boolean): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const last = blocks[mid][blocks[mid].length - 1].key;
    const c = compareKeys(last, key);
    if (c < 0 || (strict && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where the first entry > `key` (`strict`) or >= `key` lies. */
function position(blocks: Entry[][], key: SortKey, strict: boolean): Position {
  const block = firstBlockNotBelow(blocks, key, strict);
  if (block === blocks.length) return { block, offset: 0 };
  return { block, offset: strict ? upperBound(blocks[block], key) : lowerBound(blocks[block], key) };
}

/** The first position whose key is >= key. */
function lowerBound(entries: Entry[], key: SortKey): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entries[mid].key, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position whose key is > key. */
function upperBound(entries: Entry[], key: SortKey): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(entries[mid].key, key) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
