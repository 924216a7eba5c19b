import type { PoolClient, QueryResult } from 'pg';
import { deepFreeze } from '../engine.js';
import { compareKeys } from '../order.js';
import { indexName, sortKeyOf } from '../sorted-index.js';
import type { ListQuery, ListResult, ReadTransaction, StoredRecord } from '../types.js';
import { keyBytes } from './key-bytes.js';
import { ident, type IndexLayout, type Layout, type TableLayout } from './layout.js';
import { Params } from './params.js';

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
 * made in one turn of the event loop go as one batch: every get as one statement over the tables they
 * name, every list as one more. A presenter's `Promise.all` over a page of 100 members, each reading its
 * user and counting its teams, costs a round trip per step of it, not one per member and step.
 */
export class PgRead implements ReadTransaction {
  private gets: PendingGet[] = [];
  private lists: PendingList[] = [];
  /** The first statement error: after one, PostgreSQL refuses the rest of the transaction. */
  failure: unknown;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: PoolClient,
    protected readonly layout: Layout,
  ) {}

  get(table: string, id: string): Promise<StoredRecord | undefined> {
    const layout = this.tableLayout(table);
    return new Promise((resolve, reject) => {
      this.schedule();
      this.gets.push({ table: layout, id, resolve, reject });
    });
  }

  list(table: string, query: ListQuery): Promise<ListResult> {
    const layout = this.tableLayout(table);
    const index = layout.byName.get(indexName(query.index));
    if (!index) return Promise.reject(new Error(`The index ${indexName(query.index)} of table ${table} is not declared in the store's schema`));
    return new Promise((resolve, reject) => {
      this.schedule();
      this.lists.push({ table: layout, index, query, resolve, reject });
    });
  }

  /** Sends the batch once this turn's reads are in it. */
  private schedule(): void {
    if (this.gets.length === 0 && this.lists.length === 0) queueMicrotask(() => void this.sendBatch());
  }

  private async sendBatch(): Promise<void> {
    const gets = this.gets;
    const lists = this.lists;
    this.gets = [];
    this.lists = [];
    if (gets.length > 0) await settle(gets, () => this.fetchGets(gets));
    if (lists.length > 0) await settle(lists, () => this.fetchLists(lists));
  }

  /** Answers gets with one statement over every table they name. */
  private async fetchGets(gets: readonly PendingGet[]): Promise<void> {
    const tables = [...new Set(gets.map((get) => get.table))];
    const params = new Params();
    const sql = tables
      .map((table, i) => `SELECT ${i} AS t, id, data FROM ${table.sql} WHERE id = ANY(${params.add(gets.filter((get) => get.table === table).map((get) => get.id), 'text[]')})`)
      .join(' UNION ALL ');
    const found = new Map<string, StoredRecord>();
    for (const row of (await this.query(sql, params.values)).rows) found.set(`${row.t}\u0000${row.id}`, parseRecord(row.data));
    for (const get of gets) get.resolve(found.get(`${tables.indexOf(get.table)}\u0000${get.id}`));
  }

  /**
   * Answers lists with one statement, a row each: its count (from the counts table for a whole group, counted
   * over the key range for a prefix's) and its page. A filtered list reads every row it lists and is paged
   * here, after the filter.
   */
  private async fetchLists(lists: readonly PendingList[]): Promise<void> {
    const params = new Params();
    const parts = lists.map(({ table, index, query }, i) => {
      const key = ident(index.key);
      const desc = query.order === 'desc';
      // Made only where used: a parameter the statement does not use has no type PostgreSQL can tell.
      let rows: string | undefined;
      const listed = () => (rows ??= listedRows(index, query, params));
      if (query.where) return `SELECT ${i} AS i, 0 AS count, ARRAY(SELECT data FROM ${table.sql} WHERE ${listed()} ORDER BY ${key}${desc ? ' DESC' : ''}) AS items`;
      const count = query.prefix
        ? `(SELECT count(*) FROM ${table.sql} WHERE ${listed()})`
        : `(SELECT n FROM ${this.layout.own('counts')} WHERE tbl = ${params.add(table.table, 'text')} AND idx = ${params.add(index.name, 'text')} AND grp = ${params.add(keyBytes([query.value]), 'bytea')})`;
      let page = `ARRAY[]::text[]`;
      if (query.limit !== 0) {
        const after = query.after ? ` AND ${key} ${desc ? '<' : '>'} ${params.add(keyBytes(query.after), 'bytea')}` : '';
        const limit = query.limit === undefined ? '' : ` LIMIT ${Math.floor(query.limit)}`;
        page = `ARRAY(SELECT data FROM ${table.sql} WHERE ${listed()}${after} ORDER BY ${key}${desc ? ' DESC' : ''}${limit})`;
      }
      return `SELECT ${i} AS i, coalesce(${count}, 0)::int AS count, ${page} AS items`;
    });
    const { rows } = await this.query(parts.join(' UNION ALL '), params.values);
    for (const row of rows) {
      const { query, resolve } = lists[row.i];
      const items = (row.items as string[]).map(parseRecord);
      resolve(query.where ? pageFiltered(items, query) : { items, count: row.count });
    }
  }

  /**
   * Runs a statement of this transaction after the ones before it (a connection runs one at a time),
   * remembering the first that fails.
   */
  protected query(sql: string, values: unknown[]): Promise<QueryResult> {
    const run = this.queue.then(async () => {
      try {
        return await this.client.query(sql, values);
      } catch (error) {
        this.failure ??= error;
        throw error;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  protected tableLayout(table: string): TableLayout {
    const layout = this.layout.tables.get(table);
    if (!layout) throw new Error(`The table ${table} is not declared in the store's schema`);
    return layout;
  }
}

/** Runs a batch's fetch; a failure rejects every read of the batch. */
async function settle(batch: readonly Pending<never>[], fetch: () => Promise<void>): Promise<void> {
  try {
    await fetch();
  } catch (error) {
    for (const read of batch) read.reject(error);
  }
}

/**
 * The condition on the rows a list reads: its group, and the prefix's key range if any. Keys beginning with
 * the prefix's bytes come right after them (the next byte is a type byte, at most 0x04): [prefix, prefix + 0x05).
 */
function listedRows(index: IndexLayout, query: ListQuery, params: Params): string {
  const rows = `${ident(index.group)} = ${params.add(keyBytes([query.value]), 'bytea')}`;
  if (!query.prefix) return rows;
  const start = keyBytes(query.prefix);
  const key = ident(index.key);
  return `${rows} AND ${key} >= ${params.add(start, 'bytea')} AND ${key} < ${params.add(Buffer.concat([start, Buffer.from([0x05])]), 'bytea')}`;
}

/** A filtered list's answer from every record it lists, in order: the filter, then the cursor and the limit. */
function pageFiltered(records: readonly StoredRecord[], query: ListQuery): ListResult {
  const matching = records.filter(query.where!);
  const direction = query.order === 'desc' ? -1 : 1;
  const after = query.after;
  const rest = after ? matching.filter((record) => direction * compareKeys(sortKeyOf(query.index, record)!, after) > 0) : matching;
  return { items: rest.slice(0, query.limit ?? rest.length), count: matching.length };
}
