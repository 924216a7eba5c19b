import type { PoolClient, QueryResult } from 'pg';
import { deepFreeze } from '../engine.js';
import { compareKeys, indexName, sortKeyOf } from '../sorted-index.js';
import { StoreConflictError, type ListQuery, type ListResult, type ReadTransaction, type StoredRecord, type WriteTransaction } from '../types.js';
import { keyBytes } from './key-bytes.js';
import { ident, indexColumns, type IndexLayout, type Layout, type TableLayout } from './layout.js';

/** A get waiting for the batch it is in. */
interface PendingGet {
  readonly table: TableLayout;
  readonly id: string;
  resolve(record: StoredRecord | undefined): void;
  reject(error: unknown): void;
}

const parse = (data: string) => deepFreeze(JSON.parse(data) as StoredRecord);

/**
 * A read transaction on one connection, inside BEGIN ... COMMIT (REPEATABLE READ: one snapshot). Gets made
 * in the same turn of the event loop (a presenter's `Promise.all` over a page of items) go as one query,
 * so a list of 100 members and their users costs two round trips, not 101.
 */
export class PgRead implements ReadTransaction {
  private batch: PendingGet[] = [];
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
      if (this.batch.length === 0) queueMicrotask(() => void this.fetchBatch());
      this.batch.push({ table: layout, id, resolve, reject });
    });
  }

  async list(table: string, query: ListQuery): Promise<ListResult> {
    const layout = this.tableLayout(table);
    const index = layout.byName.get(indexName(query.index));
    if (!index) throw new Error(`The index ${indexName(query.index)} of table ${table} is not declared in the store's schema`);
    return query.where ? this.listFiltered(layout, index, query) : this.listRange(layout, index, query);
  }

  /**
   * A page of a group and its size in one statement: the size from the counts table, or for a prefix's
   * range a count over that range of the index.
   */
  private async listRange(table: TableLayout, index: IndexLayout, query: ListQuery): Promise<ListResult> {
    const params = new Params();
    const key = ident(index.key);
    // Made only where used: a parameter the statement does not use has no type PostgreSQL can tell.
    let rows: string | undefined;
    const listed = () => (rows ??= this.listedRows(index, query, params));
    const count = query.prefix
      ? `(SELECT count(*) FROM ${table.sql} WHERE ${listed()})`
      : `(SELECT n FROM ${this.layout.own('counts')} WHERE tbl = ${params.add(table.table, 'text')} AND idx = ${params.add(index.name, 'text')} AND grp = ${params.add(keyBytes([query.value]), 'bytea')})`;
    let page = `ARRAY[]::text[]`;
    if (query.limit !== 0) {
      const desc = query.order === 'desc';
      const after = query.after ? ` AND ${key} ${desc ? '<' : '>'} ${params.add(keyBytes(query.after), 'bytea')}` : '';
      const limit = query.limit === undefined ? '' : ` LIMIT ${Math.floor(query.limit)}`;
      page = `ARRAY(SELECT data FROM ${table.sql} WHERE ${listed()}${after} ORDER BY ${key}${desc ? ' DESC' : ''}${limit})`;
    }
    const [row] = (await this.query(`SELECT coalesce(${count}, 0)::int AS count, ${page} AS items`, params.values)).rows;
    return { items: (row.items as string[]).map(parse), count: row.count };
  }

  /** A filtered list: every record listed is read (the filter runs here), then paged as the store pages. */
  private async listFiltered(table: TableLayout, index: IndexLayout, query: ListQuery): Promise<ListResult> {
    const params = new Params();
    const desc = query.order === 'desc';
    const { rows } = await this.query(
      `SELECT data FROM ${table.sql} WHERE ${this.listedRows(index, query, params)} ORDER BY ${ident(index.key)}${desc ? ' DESC' : ''}`,
      params.values,
    );
    const matching = rows.map((row) => parse(row.data)).filter(query.where!);
    const direction = desc ? -1 : 1;
    const after = query.after;
    const rest = after ? matching.filter((record) => direction * compareKeys(sortKeyOf(query.index, record)!, after) > 0) : matching;
    return { items: rest.slice(0, query.limit ?? rest.length), count: matching.length };
  }

  /**
   * The condition on the rows a list reads: its group, and the prefix's key range if any. Keys beginning
   * with the prefix's bytes come next after them (the next byte is a type byte, at most 0x04): [prefix, prefix + 0x05).
   */
  private listedRows(index: IndexLayout, query: ListQuery, params: Params): string {
    const rows = `${ident(index.group)} = ${params.add(keyBytes([query.value]), 'bytea')}`;
    if (!query.prefix) return rows;
    const start = keyBytes(query.prefix);
    const key = ident(index.key);
    return `${rows} AND ${key} >= ${params.add(start, 'bytea')} AND ${key} < ${params.add(Buffer.concat([start, Buffer.from([0x05])]), 'bytea')}`;
  }

  /** Answers the gets of one turn with one statement over every table they name. */
  private async fetchBatch(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    const byTable = new Map<TableLayout, string[]>();
    for (const { table, id } of batch) {
      const ids = byTable.get(table);
      if (ids) ids.push(id);
      else byTable.set(table, [id]);
    }
    const tables = [...byTable];
    const sql = tables.map(([table], i) => `SELECT ${i} AS t, id, data FROM ${table.sql} WHERE id = ANY($${i + 1}::text[])`).join(' UNION ALL ');
    try {
      const { rows } = await this.query(sql, tables.map(([, ids]) => ids));
      const found = new Map<string, StoredRecord>();
      for (const row of rows) found.set(`${row.t}\u0000${row.id}`, parse(row.data));
      const position = new Map(tables.map(([table], i) => [table, i]));
      for (const get of batch) get.resolve(found.get(`${position.get(get.table)}\u0000${get.id}`));
    } catch (error) {
      for (const get of batch) get.reject(error);
    }
  }

  /**
   * Runs a statement of this transaction after the ones before it (a connection runs one at a time, and
   * an operation may read several things at once), remembering the first that fails.
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

/**
 * A write transaction (SERIALIZABLE). Changes are kept here and written at commit, or before a list of
 * their table reads them back: one statement per table, which also moves the group sizes in the counts
 * table, so most transactions cost their reads plus one round trip per table they change.
 */
export class PgWrite extends PgRead implements WriteTransaction {
  /** Per table, the changed records by id (null: deleted); `dirty` has those not written yet. */
  private readonly staged = new Map<string, Map<string, StoredRecord | null>>();
  private readonly dirty = new Set<string>();

  override async get(table: string, id: string): Promise<StoredRecord | undefined> {
    const changed = this.staged.get(table);
    if (changed?.has(id)) return changed.get(id) ?? undefined;
    return super.get(table, id);
  }

  override async list(table: string, query: ListQuery): Promise<ListResult> {
    if (this.dirty.has(table)) await this.flushTable(table);
    return super.list(table, query);
  }

  async insert(table: string, record: StoredRecord): Promise<void> {
    if ((await this.get(table, record.id)) !== undefined) throw new StoreConflictError(table, record.id);
    this.stage(table, record.id, deepFreeze(record));
  }

  async put(table: string, record: StoredRecord): Promise<void> {
    this.tableLayout(table);
    this.stage(table, record.id, deepFreeze(record));
  }

  async delete(table: string, id: string): Promise<boolean> {
    const existed = (await this.get(table, id)) !== undefined;
    if (existed) this.stage(table, id, null);
    return existed;
  }

  /** Whether the transaction changed anything. */
  get changed(): boolean {
    return this.staged.size > 0;
  }

  /** Writes every change not written yet. */
  async flush(): Promise<void> {
    for (const table of [...this.dirty]) await this.flushTable(table);
  }

  private stage(table: string, id: string, record: StoredRecord | null): void {
    let changed = this.staged.get(table);
    if (!changed) this.staged.set(table, (changed = new Map()));
    changed.set(id, record);
    this.dirty.add(table);
  }

  /** Writes a table's staged records (puts as one upsert, deletes as one delete), moving its counts. */
  private async flushTable(table: string): Promise<void> {
    this.dirty.delete(table);
    const layout = this.tableLayout(table);
    const puts: StoredRecord[] = [];
    const deletes: string[] = [];
    for (const [id, record] of this.staged.get(table)!) {
      if (record) puts.push(record);
      else deletes.push(id);
    }
    if (puts.length > 0) await this.upsert(layout, puts);
    if (deletes.length > 0) await this.remove(layout, deletes);
  }

  private async upsert(table: TableLayout, records: StoredRecord[]): Promise<void> {
    const params = new Params();
    const columns: (Buffer | null)[][] = table.indexes.flatMap(() => [[], []]);
    for (const record of records) indexColumns(table, record).forEach((value, i) => columns[i].push(value));
    const names = ['id', 'data', ...table.indexes.flatMap((index) => [ident(index.group), ident(index.key)])];
    const inputs = [
      params.add(records.map((record) => record.id), 'text[]'),
      params.add(records.map((record) => JSON.stringify(record)), 'text[]'),
      ...columns.map((column) => params.add(column, 'bytea[]')),
    ];
    const input = `input AS (SELECT * FROM unnest(${inputs.join(', ')}) AS x(${names.join(', ')}))`;
    const upsert =
      `INSERT INTO ${table.sql} (${names.join(', ')}) SELECT ${names.join(', ')} FROM input ` +
      `ON CONFLICT (id) DO UPDATE SET ${names.slice(1).map((name) => `${name} = excluded.${name}`).join(', ')}`;
    if (table.indexes.length === 0) {
      await this.query(`WITH ${input} ${upsert}`, params.values);
      return;
    }
    const old = `old AS (SELECT ${names.filter((name) => name !== 'data').map((name) => `t.${name}`).join(', ')} FROM ${table.sql} t JOIN input USING (id))`;
    const deltas = this.countDeltas(table, params, [
      ['old', -1],
      ['input', 1],
    ]);
    await this.query(`WITH ${input}, ${old}, up AS (${upsert}), ${deltas}`, params.values);
  }

  private async remove(table: TableLayout, ids: string[]): Promise<void> {
    const params = new Params();
    const where = `id = ANY(${params.add(ids, 'text[]')})`;
    if (table.indexes.length === 0) {
      await this.query(`DELETE FROM ${table.sql} WHERE ${where}`, params.values);
      return;
    }
    const gone = `gone AS (DELETE FROM ${table.sql} WHERE ${where} RETURNING ${table.indexes.map((index) => ident(index.group)).join(', ')})`;
    await this.query(`WITH ${gone}, ${this.countDeltas(table, params, [['gone', -1]])}`, params.values);
  }

  /**
   * The end of a statement that moves the counts of the groups records left (-1) or joined (+1): `sources`
   * name CTEs that have every index's group column.
   */
  private countDeltas(table: TableLayout, params: Params, sources: [string, number][]): string {
    const parts: string[] = [];
    for (const index of table.indexes) {
      const name = params.add(index.name, 'text');
      for (const [source, sign] of sources) {
        parts.push(`SELECT ${name} AS idx, ${ident(index.group)} AS grp, ${sign} AS d FROM ${source} WHERE ${ident(index.group)} IS NOT NULL`);
      }
    }
    const counts = this.layout.own('counts');
    return (
      `deltas AS (${parts.join(' UNION ALL ')}) ` +
      `INSERT INTO ${counts} (tbl, idx, grp, n) SELECT ${params.add(table.table, 'text')}, idx, grp, sum(d) FROM deltas GROUP BY idx, grp HAVING sum(d) <> 0 ` +
      `ON CONFLICT (tbl, idx, grp) DO UPDATE SET n = ${counts}.n + excluded.n`
    );
  }
}

/** The parameters of one statement, numbered as they are added. */
class Params {
  readonly values: unknown[] = [];

  /** Adds a value; returns its placeholder with a cast, e.g. `$3::text[]`. */
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}
