import { indexName } from '../sorted-index.js';
import type { ListQuery, ListResult, StoredRecord } from '../types.js';
import { pageFiltered } from './filtered-page.js';

/**
 * What reads answered under one PostgreSQL snapshot, kept to answer the same reads again under the same
 * snapshot without asking the database.
 *
 * A snapshot (`pg_current_snapshot()`: xmin, xmax and the transactions in progress) fixes which transactions
 * a reader sees: every one below xmax that is not in progress has ended, and an ended transaction never
 * changes its outcome. So two snapshots that print the same, taken by any connection at any time, see the
 * same data. And a write that was acknowledged before a snapshot was taken is in it: its commit moved xmax
 * past its id, or took it out of the list in progress. A read transaction that asks for its snapshot and
 * finds the cache's can take every answer kept for it: it sees exactly what it would have read, including
 * every write any process committed before it began. Any commit anywhere (a write, or an aborted one)
 * changes the snapshot, and the cache starts over.
 *
 * Only read transactions use it: a write transaction reads from the database, where SERIALIZABLE tracks
 * what it read.
 *
 * The rule holds within one PostgreSQL server. Across an outage it may not: the database may come back as
 * another server (a failover to a standby that missed the last commits, a restore) whose snapshots can print
 * as the cache's while its data differ. So the store clears the cache when its database goes away, and when
 * it is back (clear()); answers that transactions begun before read then are not kept.
 */
export class SnapshotCache {
  /** The snapshot the entries were read under, parsed for ordering. */
  private tag: Snapshot | undefined;
  private entries = new Map<string, Entry>();
  private weight = 0;
  /** Bumped by clear(): a view of an earlier generation neither answers nor keeps anything. */
  private generation = 0;

  /** @param capacity The most weight held: a record weighs 1, a list 1 and 1 for each of its items. */
  constructor(private readonly capacity: number) {}

  /**
   * The cache's view for a transaction reading under `snapshot` (the text of pg_current_snapshot()). A
   * newer snapshot than the cache's replaces it (the entries are dropped); an older one gets a view that
   * neither answers nor keeps anything, so that a slow reader does not throw away newer answers.
   */
  view(snapshot: string): CacheView | undefined {
    if (this.capacity <= 0) return undefined;
    if (this.tag?.text !== snapshot) {
      const parsed = parseSnapshot(snapshot);
      if (this.tag && !isNewer(parsed, this.tag)) return undefined;
      this.tag = parsed;
      this.entries = new Map();
      this.weight = 0;
    }
    return new CacheView(this, snapshot, this.generation);
  }

  /** Forgets every answer, and the snapshot they were read under. */
  clear(): void {
    this.tag = undefined;
    this.entries = new Map();
    this.weight = 0;
    this.generation++;
  }

  /** Whether it holds anything at all (a capacity above 0). */
  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** The snapshot entries are kept for, as printed. */
  get snapshot(): string | undefined {
    return this.tag?.text;
  }

  /** @internal */
  lookup(snapshot: string, generation: number, key: string): Entry | undefined {
    return this.tag?.text === snapshot && generation === this.generation ? this.entries.get(key) : undefined;
  }

  /** @internal Keeps an answer read under `snapshot`, if that is still the cache's; the oldest go first when full. */
  keep(snapshot: string, generation: number, key: string, entry: Entry): void {
    if (this.tag?.text !== snapshot || generation !== this.generation || this.entries.has(key)) return;
    const weight = entry.kind === 'list' ? 1 + entry.value.items.length : 1;
    if (weight > this.capacity) return;
    for (const [oldest, old] of this.entries) {
      if (this.weight + weight <= this.capacity) break;
      this.entries.delete(oldest);
      this.weight -= old.kind === 'list' ? 1 + old.value.items.length : 1;
    }
    this.entries.set(key, entry);
    this.weight += weight;
  }
}

type Entry = { readonly kind: 'get'; readonly value: StoredRecord | undefined } | { readonly kind: 'list'; readonly value: ListResult };

/** One transaction's access to the cache, under its snapshot. */
export class CacheView {
  constructor(
    private readonly cache: SnapshotCache,
    readonly snapshot: string,
    private readonly generation: number,
  ) {}

  /** The record kept for `get(table, id)`: `found` false when nothing is kept (undefined is an answer). */
  get(table: string, id: string): { found: boolean; value?: StoredRecord } {
    const entry = this.cache.lookup(this.snapshot, this.generation, getKey(table, id));
    return entry?.kind === 'get' ? { found: true, value: entry.value } : { found: false };
  }

  keepGet(table: string, id: string, value: StoredRecord | undefined): void {
    this.cache.keep(this.snapshot, this.generation, getKey(table, id), { kind: 'get', value });
  }

  /**
   * The answer kept for a list, in an array of its own. A filtered list (its filter is code, not a key) is
   * answered from its whole group (or prefix's range), kept once by any filtered list of it.
   */
  list(table: string, query: ListQuery): ListResult | undefined {
    const entry = this.cache.lookup(this.snapshot, this.generation, listKey(table, query));
    if (entry?.kind !== 'list') return undefined;
    return query.where ? pageFiltered(entry.value.items, query) : { items: entry.value.items.slice(), count: entry.value.count };
  }

  /** Keeps what the database answered a list: a filtered list's `items` are its whole group (read.ts). */
  keepList(table: string, query: ListQuery, items: readonly StoredRecord[], count: number): void {
    const value = query.where ? { items: [...items], count: items.length } : { items: [...items], count };
    this.cache.keep(this.snapshot, this.generation, listKey(table, query), { kind: 'list', value });
  }
}

const getKey = (table: string, id: string) => `g\u0000${table}\u0000${id}`;

/** A list's key: everything that decides its answer; for a filtered list, its group's (see CacheView.list). */
function listKey(table: string, query: ListQuery): string {
  const { value, order, after, limit, prefix, where } = query;
  const page = where ? 'all' : [after ?? null, limit ?? null];
  return `l\u0000${table}\u0000${indexName(query.index)}\u0000${JSON.stringify([value, order === 'desc', prefix ?? null, page])}`;
}

interface Snapshot {
  readonly text: string;
  readonly xmax: bigint;
  readonly inProgress: number;
}

/** `xmin:xmax:xip,xip,...` as pg_snapshot prints. */
function parseSnapshot(text: string): Snapshot {
  const [, xmax = '0', xip = ''] = text.split(':');
  return { text, xmax: BigInt(xmax), inProgress: xip === '' ? 0 : xip.split(',').length };
}

/**
 * Whether `a` was taken after `b`, as far as their texts tell: xmax only grows, and at the same xmax the
 * transactions in progress only end. (Equality decides what a cache answers; this only picks which to keep.)
 */
const isNewer = (a: Snapshot, b: Snapshot) => a.xmax > b.xmax || (a.xmax === b.xmax && a.inProgress < b.inProgress);
