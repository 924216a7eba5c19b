import type { IndexDefinition, ReadTransaction, StoredRecord } from '../../store/types.js';
import { badRequest, conflict } from '../errors.js';
import { keyBetween, saltedAfter } from './keys.js';

/**
 * Sibling order for everything that can be moved with `position: {before?, after?}`: spaces and
 * collections today, site sections, section groups and site spaces later. Siblings share a group
 * (a string naming their parent, e.g. `collection:<id>`) and each carries a fractional `orderKey`,
 * so moving an item writes that one record. Siblings may come from several tables (a collection holds
 * both spaces and collections): each table contributes through an index grouped by the parent key
 * and ordered by `orderKey`, and the lists are merged by (orderKey, id).
 */

/** A record that has a place among siblings. */
export interface OrderedRecord extends StoredRecord {
  /** The fractional key that orders it among its siblings (see keys.ts). */
  readonly orderKey: string;
}

/** One table whose records are siblings of each other within a group. */
export interface SiblingTable {
  /** The kind of its records, as position references name it (`space`, `collection`, `site-section`). */
  readonly kind: string;
  readonly table: string;
  /** An index of the table grouped by the parent key, ordered by `orderKey`. */
  readonly index: IndexDefinition;
  /** Which records of the group count as siblings (e.g. not deleted); default all. */
  readonly where?: (record: StoredRecord) => boolean;
}

/** A sibling and the kind it is. */
export interface Sibling {
  readonly kind: string;
  readonly record: OrderedRecord;
}

/** A reference to an item by kind and id, as in `{type: 'space', space: <id>}`. */
export interface ItemRef {
  readonly kind: string;
  readonly id: string;
}

/** Where to put an item: right before one sibling and/or right after another. */
export interface Position {
  readonly before?: ItemRef;
  readonly after?: ItemRef;
}

/** A group of siblings: the tables that contribute, the parent key, and how messages name it. */
export interface SiblingGroup {
  readonly tables: readonly SiblingTable[];
  readonly key: string;
  /** The group in words, for error messages, e.g. `collection 3fa2` or `the top level of the organization`. */
  readonly label: string;
}

const sameRef = (sibling: Sibling, ref: ItemRef) => sibling.kind === ref.kind && sibling.record.id === ref.id;
const compareSiblings = (a: Sibling, b: Sibling) =>
  a.record.orderKey < b.record.orderKey ? -1 : a.record.orderKey > b.record.orderKey ? 1 : a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;

/** Lists the siblings of a group in their order. */
export async function listSiblings(tx: ReadTransaction, group: SiblingGroup): Promise<Sibling[]> {
  // The tables read together: one round trip of a networked store, not one a table.
  const lists = await Promise.all(group.tables.map((source) => tx.list(source.table, { index: source.index, value: group.key, where: source.where })));
  const siblings = group.tables.flatMap((source, at) => lists[at].items.map((record) => ({ kind: source.kind, record: record as OrderedRecord })));
  return siblings.sort(compareSiblings);
}

/**
 * The key that puts a new item at the end of a group. It reads only the last record of each table (one index
 * entry, the filtered-out ones too: a key after theirs is after the rest), not every sibling, and salts the key
 * (saltedAfter): writers appending at once, each seeing the same last sibling, get distinct keys, and need
 * not see each other's.
 */
export async function keyAtEnd(tx: ReadTransaction, group: SiblingGroup): Promise<string> {
  const lasts = await Promise.all(group.tables.map((source) => tx.list(source.table, { index: source.index, value: group.key, order: 'desc', limit: 1 })));
  const keys = lasts.map(({ items }) => (items[0] as OrderedRecord | undefined)?.orderKey).filter((key) => typeof key === 'string');
  const last = keys.reduce<string | null>((max, key) => (max === null || key > max ? key : max), null);
  return saltedAfter(last);
}

/** The key that puts a new item right after an existing sibling (a duplicate next to its original). */
export async function keyRightAfter(tx: ReadTransaction, group: SiblingGroup, ref: ItemRef): Promise<string> {
  const siblings = await listSiblings(tx, group);
  const index = siblings.findIndex((sibling) => sameRef(sibling, ref));
  if (index < 0) return keyBetween(siblings.at(-1)?.record.orderKey ?? null, null);
  return keyBetween(siblings[index].record.orderKey, siblings[index + 1]?.record.orderKey ?? null);
}

/** Names a reference in messages: `space abc`. */
const describe = (ref: ItemRef) => `${ref.kind} ${ref.id}`;

/**
 * The ordering key that places `moving` in `group` at `position` (absent: at the end). A reference
 * that is not a sibling in the group, or that is the item itself, is a 400 naming it; `before` and
 * `after` together must name neighbours (after X, before the sibling that follows X). A move that would
 * leave the item where it is (same group, same neighbours) is a 409, as in the public API: it would
 * not result in any update.
 */
export async function keyForMove(
  tx: ReadTransaction,
  group: SiblingGroup,
  moving: ItemRef,
  position: Position = {},
): Promise<string> {
  const all = await listSiblings(tx, group);
  const current = all.findIndex((sibling) => sameRef(sibling, moving));
  const others = all.filter((sibling) => !sameRef(sibling, moving));
  const find = (field: 'before' | 'after', ref: ItemRef) => {
    if (ref.kind === moving.kind && ref.id === moving.id) {
      throw badRequest(`position.${field}: cannot place ${describe(moving)} relative to itself`);
    }
    const index = others.findIndex((sibling) => sameRef(sibling, ref));
    if (index < 0) throw badRequest(`position.${field}: ${describe(ref)} is not in ${group.label}`);
    return index;
  };
  // `slot` is where the item lands among the others: it goes right before others[slot].
  let slot = others.length;
  if (position.after) slot = find('after', position.after) + 1;
  if (position.before) {
    const beforeIndex = find('before', position.before);
    if (position.after && beforeIndex !== slot) {
      throw badRequest(
        `position: ${describe(position.after)} and ${describe(position.before)} are not neighbours in ${group.label}; give one of them`,
      );
    }
    slot = beforeIndex;
  }
  if (current === slot) throw conflict(`Operation would not result in any update: ${describe(moving)} is already there`);
  return keyBetween(others[slot - 1]?.record.orderKey ?? null, others[slot]?.record.orderKey ?? null);
}
