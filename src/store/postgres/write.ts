import { deepFreeze } from '../engine.js';
import { StoreConflictError, type ListQuery, type ListResult, type StoredRecord, type WriteTransaction } from '../types.js';
import { ident, indexColumns, type TableLayout } from './layout.js';
import { Params } from './params.js';
import { PgRead } from './read.js';

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

  /** Writes every change not written yet (on a pipelined connection, every statement at once). */
  async flush(): Promise<void> {
    await Promise.all([...this.dirty].map((table) => this.flushTable(table)));
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
    await Promise.all([puts.length > 0 && this.upsert(layout, puts), deletes.length > 0 && this.remove(layout, deletes)]);
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
      await this.query(`WITH ${input} ${upsert}`, params.values, true);
      return;
    }
    const old = `old AS (SELECT ${names.filter((name) => name !== 'data').map((name) => `t.${name}`).join(', ')} FROM ${table.sql} t JOIN input USING (id))`;
    const deltas = this.countDeltas(table, params, [
      ['old', -1],
      ['input', 1],
    ]);
    await this.query(`WITH ${input}, ${old}, up AS (${upsert}), ${deltas}`, params.values, true);
  }

  private async remove(table: TableLayout, ids: string[]): Promise<void> {
    const params = new Params();
    const where = `id = ANY(${params.add(ids, 'text[]')})`;
    if (table.indexes.length === 0) {
      await this.query(`DELETE FROM ${table.sql} WHERE ${where}`, params.values, true);
      return;
    }
    const gone = `gone AS (DELETE FROM ${table.sql} WHERE ${where} RETURNING ${table.indexes.map((index) => ident(index.group)).join(', ')})`;
    await this.query(`WITH ${gone}, ${this.countDeltas(table, params, [['gone', -1]])}`, params.values, true);
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

