import { createHash } from 'node:crypto';
import type { PoolClient, QueryResult } from 'pg';
import { deepFreeze } from '../engine.js';
import { indexName } from '../sorted-index.js';
import type { ListQuery, ListResult, ReadTransaction, StoredRecord } from '../types.js';
import { pageFiltered } from './filtered-page.js';
import { keyBytes } from './key-bytes.js';
import { ident, type IndexLayout, type Layout, type TableLayout } from './layout.js';
import { Params } from './params.js';
import type { CacheView } from './snapshot-cache.js';

/** A read waiting for the batch it is in. */
interface Pending<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

interface PendingGet extends Pending<StoredRecord | undefined> {
  readonly table: TableLayout;
  readonly id: string;
}

interface PendingList extends Pending<ListResult> {
  readonly table: TableLayout;
  readonly index: IndexLayout;
  readonly query: ListQuery;
}

/** Parses a stored record; stores hand out frozen records. */
export const parseRecord = (data: string) => deepFreeze(JSON.parse(data) as StoredRecord);

/**
 * A read transaction on one connection, inside BEGIN ... COMMIT (REPEATABLE READ: one snapshot). The reads
 * made in one turn of the event loop go as one batch, one statement: the gets of each table as one part of
 * it, the lists of each table, index and order as one more, whatever their number. A presenter's
 * `Promise.all` over a page of 100 members, each reading its user and counting its teams, costs a round
 * trip per step of it, not one per member and step. The statement keeps the same text whatever the batch's
 * size, so it is prepared once per connection (parsed and planned once, not on every request).
 */
export class PgRead implements ReadTransaction {
  private gets: PendingGet[] = [];
  private lists: PendingList[] = [];
  /** The first statement error: after one, PostgreSQL refuses the rest of the transaction. */
  failure: unknown;
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The snapshot cache under this transaction's snapshot, once its answer came (store.ts): reads after
   * that take what it holds, and what the database answers is kept in it.
   */
  view: CacheView | undefined;
  /** Until the snapshot's answer comes (store.ts), reads wait for it, so that they can find it in the cache. */
  viewReady: Promise<void> | undefined;
  /** How many reads the database answered (the others came from the cache). */
  fetched = 0;

  constructor(
    private readonly client: PoolClient,
    protected readonly layout: Layout,
  ) {}

  get(table: string, id: string): Promise<StoredRecord | undefined> {
    if (this.viewReady) return this.viewReady.then(() => this.get(table, id));
    const layout = this.tableLayout(table);
    const kept = this.view?.get(table, id);
    if (kept?.found) return Promise.resolve(kept.value);
    this.fetched++;
    return new Promise((resolve, reject) => {
      this.schedule();
      this.gets.push({ table: layout, id, resolve, reject });
    });
  }

  /** Every get in this turn's batch: one statement with the rest, as the gets of a Promise.all. */
  getMany(table: string, ids: readonly string[]): Promise<(StoredRecord | undefined)[]> {
    return Promise.all(ids.map((id) => this.get(table, id)));
  }

  list(table: string, query: ListQuery): Promise<ListResult> {
    if (this.viewReady) return this.viewReady.then(() => this.list(table, query));
    const layout = this.tableLayout(table);
    const index = layout.byName.get(indexName(query.index));
    if (!index) return Promise.reject(new Error(`The index ${indexName(query.index)} of table ${table} is not declared in the store's schema`));
    const kept = this.view?.list(table, query);
    if (kept) return Promise.resolve(kept);
    this.fetched++;
    return new Promise((resolve, reject) => {
      this.schedule();
      this.lists.push({ table: layout, index, query, resolve, reject });
    });
  }

  /** Sends the batch once this turn's reads are in it. */
  private schedule(): void {
    if (this.gets.length === 0 && this.lists.length === 0) queueMicrotask(() => void this.sendBatch());
  }

  /**
   * Answers a turn's reads with one statement: a UNION ALL of a part per table its gets name and a part per
   * kind of list (see listPart), each row tagged with its part. Its text depends only on which tables and
   * kinds of list the turn reads, so it is prepared once per connection; and one statement, not one per
   * part, because each costs the database and this process a message and a reply of their own.
   */
  private async sendBatch(): Promise<void> {
    const gets = this.gets;
    const lists = this.lists;
    this.gets = [];
    this.lists = [];
    const params = new Params();
    const parts: string[] = [];
    const getParts = new Map<TableLayout, number>();
    for (const { table } of gets) {
      if (getParts.has(table)) continue;
      getParts.set(table, parts.length);
      const ids = gets.filter((get) => get.table === table).map((get) => get.id);
      // One id, the common case, as a text: no array for pg to build and PostgreSQL to parse, and a plain index scan.
      const match = ids.length === 1 ? `id = ${params.add(ids[0], 'text')}` : `id = ANY(${params.add(ids, 'text[]')})`;
      parts.push(`SELECT ${parts.length} AS s, 0 AS i, id, data, 0 AS count FROM ${table.sql} WHERE ${match}`);
    }
    const shapes = new Map<string, PendingList[]>();
    for (const list of lists) {
      const shape = `${list.table.table}\u0000${list.index.name}\u0000${list.query.order === 'desc'}\u0000${list.query.prefix !== undefined}`;
      const group = shapes.get(shape);
      if (group) group.push(list);
      else shapes.set(shape, [list]);
    }
    const listParts = [...shapes.values()];
    for (const group of listParts) parts.push(this.listPart(parts.length, group, params));
    const all: Pending<never>[] = [...gets, ...lists];
    await settle(all, async () => {
      const found = new Map<string, StoredRecord>();
      for (const row of (await this.query(parts.join(' UNION ALL '), params.values, true)).rows) {
        if (row.s < getParts.size) {
          found.set(`${row.s}\u0000${row.id}`, parseRecord(row.data));
          continue;
        }
        const { table, query, resolve } = listParts[row.s - getParts.size][row.i];
        const items = (JSON.parse(row.data) as StoredRecord[]).map(deepFreeze);
        this.view?.keepList(table.table, query, items, row.count);
        resolve(query.where ? pageFiltered(items, query) : { items, count: row.count });
      }
      for (const get of gets) {
        const record = found.get(`${getParts.get(get.table)}\u0000${get.id}`);
        this.view?.keepGet(get.table.table, get.id, record);
        get.resolve(record);
      }
    });
  }

  /**
   * The part of a batch's statement that answers the lists of one table, index, order and kind (with a
   * prefix or not), over arrays of their groups, ranges, cursors and limits: a row each, its count and its
   * page (the `data` column), a range scan of the index from the cursor on. A whole group's count is the sum
   * of its rows (stripes) in the counts table; a prefix's range, from its bytes to just past them (the byte
   * after a key's last scalar is a type byte, at most 0x04), is counted. A filtered list reads every record
   * of its group or range and is counted and paged here, after the filter. A page comes as the text of one
   * JSON array (the records' JSON texts joined): one parse, where a text[] of them took pg's array parser
   * longer than the rest of the request. Every key begins with a type byte from 0x01 to 0x04, so the empty
   * bytea is below every key and 0xff above: the bounds of a list with no cursor.
   */
  private listPart(part: number, lists: readonly PendingList[], params: Params): string {
    const { table, index, query } = lists[0];
    const desc = query.order === 'desc';
    const prefixed = query.prefix !== undefined;
    const key = ident(index.key);
    const lows = lists.map(({ query: { prefix } }) => (prefix ? keyBytes(prefix) : null));
    const i = params.add(lists.map((_, at) => at), 'int[]');
    const group = params.add(lists.map((list) => keyBytes([list.query.value])), 'bytea[]');
    // A filtered list reads all, and pages after its filter.
    const afters = params.add(lists.map(({ query: { after, where } }) => (after && !where ? keyBytes(after) : null)), 'bytea[]');
    const limits = params.add(lists.map(({ query: { limit, where } }) => (limit === undefined || where ? null : Math.floor(limit))), 'int[]');
    const low = params.add(lows, 'bytea[]');
    const high = prefixed ? params.add(lows.map((bytes) => Buffer.concat([bytes!, Buffer.from([0x05])])), 'bytea[]') : low;
    const rows = `${ident(index.group)} = x.grp${prefixed ? ` AND ${key} >= x.low AND ${key} < x.high` : ''}`;
    const count = prefixed
      ? `(SELECT count(*) FROM ${table.sql} WHERE ${rows})`
      : `(SELECT sum(n) FROM ${this.layout.own('counts')} WHERE tbl = ${params.add(table.table, 'text')} AND idx = ${params.add(index.name, 'text')} AND grp = x.grp)`;
    const after = desc ? `< coalesce(x.after, '\\xff'::bytea)` : `> coalesce(x.after, '\\x'::bytea)`;
    return (
      `SELECT ${part} AS s, x.i, NULL AS id, CASE WHEN x.lim = 0 THEN '[]' ELSE '[' || array_to_string(ARRAY(SELECT data FROM ${table.sql} ` +
      `WHERE ${rows} AND ${key} ${after} ORDER BY ${key}${desc ? ' DESC' : ''} LIMIT x.lim), ',') || ']' END AS data, coalesce(${count}, 0)::int AS count ` +
      `FROM unnest(${i}, ${group}, ${afters}, ${limits}, ${low}, ${high}) AS x(i, grp, after, lim, low, high)`
    );
  }

  /**
   * Runs a statement of this transaction after the ones before it, remembering the first that fails. A
   * pipelined connection sends it at once (it answers in order); another runs one at a time, so it is sent
   * once the one before it is answered. A `prepared` statement is named after its text, so that the
   * connection parses and plans it once: only for texts of a bounded number (one per table, index and shape).
   */
  protected query(sql: string, values: unknown[], prepared = false): Promise<QueryResult> {
    const send = async () => {
      try {
        return await this.client.query(prepared ? { name: statementName(sql), text: sql, values } : { text: sql, values });
      } catch (error) {
        this.failure ??= error;
        throw error;
      }
    };
    if (this.client.pipeline) {
      holdWrites(this.client);
      return send();
    }
    const run = this.queue.then(send);
    this.queue = run.catch(() => undefined);
    return run;
  }

  protected tableLayout(table: string): TableLayout {
    const layout = this.layout.tables.get(table);
    if (!layout) throw new Error(`The table ${table} is not declared in the store's schema`);
    return layout;
  }
}

const held = new WeakSet<object>();

/**
 * Holds a pipelined connection's writes until the end of this turn (cork, uncorked on the next tick): the
 * statements of a turn (a BEGIN and the first batch, a batch's statements, the changes and a COMMIT) then
 * leave in one write to the socket, not one each. A write is a system call, and one per statement took
 * more of the server's time than anything else in a request.
 */
export function holdWrites(client: PoolClient): void {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  if (!stream?.cork || !stream.uncork || held.has(stream)) return;
  held.add(stream);
  stream.cork();
  process.nextTick(() => {
    held.delete(stream);
    stream.uncork!();
  });
}

const names = new Map<string, string>();

/** The name of a prepared statement: its text's hash, so that one name never stands for two texts. */
function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `dp_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    // Texts are few (one per table and shape); the bound only guards against a caller that made them vary.
    if (names.size >= 10_000) names.clear();
    names.set(sql, name);
  }
  return name;
}

/** Runs a batch's fetch; a failure rejects every read of the batch. */
async function settle(batch: readonly Pending<never>[], fetch: () => Promise<void>): Promise<void> {
  try {
    await fetch();
  } catch (error) {
    for (const read of batch) read.reject(error);
  }
}
