import { deepFreeze } from '../engine.js';
import { StoreConflictError, type ListQuery, type ListResult, type LockMode, type StoredRecord, type WriteTransaction } from '../types.js';
import { ident, indexColumns, type TableLayout } from './layout.js';
import { Params } from './params.js';
import type { NumberSource } from './numbers.js';
import { PgRead } from './read.js';
import { LockedScopes, RestartWithLocks } from './scopes.js';

/**
 * Into how many rows (stripes) of the counts table a group's size is split. Each connection moves the row
 * of its own stripe (its backend's pid modulo this), and a count is the sum of the rows: with one row a
 * group, every write transaction that added to the same group (a team to an organization) updated the
 * same row, and all but one of them failed and ran again, 2,800 times in 4 seconds for 50 concurrent
 * writers, at 65 writes/s. With 32 stripes, two of the 20 connections of two processes shared one more often
 * than not, and inserting pages from 16 writers rolled back one transaction in ten (issue 28); with 1,024,
 * two share one about once in six such sets of connections, and a read sums at most this many rows (as many
 * as connections that ever wrote to the group).
 */
export const COUNT_STRIPES = 1024;

/** PostgreSQL's SQLSTATE of a duplicate key. */
const UNIQUE_VIOLATION = '23505';

/**
 * A write transaction (REPEATABLE READ: one snapshot; of two that change one row, the second fails with a
 * serialization failure and runs again). Changes are kept here and written at commit, or before a list of
 * their table reads them back: one statement per table, which also moves the group sizes in the counts
 * table, so most transactions cost their reads plus one round trip per table they change.
 *
 * Its BEGIN leaves with its first statement, and the snapshot is taken there. A scope locked before that
 * (`lock` as the transaction's first call, or one a failed attempt asked for: LockedScopes) is taken first,
 * on the session, so that the snapshot sees what every earlier holder wrote; a scope locked later, after
 * the snapshot, makes the attempt run again with it taken first (RestartWithLocks).
 *
 * An insert reads nothing: its record goes in with a plain INSERT, and an id that is taken fails it with
 * a unique violation, which rejects the transaction with StoreConflictError; when the transaction had read
 * that id and found nothing (a record another writer added since its snapshot), it runs again instead,
 * and sees the record.
 */
export class PgWrite extends PgRead implements WriteTransaction {
  /** Per table, the changed records by id (null: deleted); `dirty` has those not written yet. */
  private readonly staged = new Map<string, Map<string, StoredRecord | null>>();
  private readonly dirty = new Set<string>();
  /** Per table, the ids inserted and not written yet: absent before this transaction. */
  private readonly fresh = new Map<string, Set<string>>();
  /** A scope asked for after the snapshot: the attempt ends, and the next takes it first. */
  restart: RestartWithLocks | undefined;
  /** The answer of the BEGIN, once sent (with the first statement). */
  began: Promise<unknown> | undefined;

  constructor(
    client: ConstructorParameters<typeof PgRead>[0],
    layout: ConstructorParameters<typeof PgRead>[1],
    private readonly beginSql: string,
    /** The scopes held on the session, and those to take before the snapshot. */
    readonly scopes: LockedScopes,
    private readonly numbers: NumberSource,
  ) {
    super(client, layout);
  }

  protected override query(sql: string, values: unknown[], prepared = false) {
    this.begin();
    return super.query(sql, values, prepared);
  }

  /**
   * Sends the BEGIN, right behind the statements that take the scopes a failed attempt asked for: the
   * connection answers them in order, so the snapshot comes after the locks.
   */
  begin(): void {
    if (this.began) return;
    const send = (sql: string, values: unknown[]) => super.query(sql, values);
    const locked = this.scopes.takeWanted(send);
    this.began = Promise.all([locked, send(this.beginSql, [])]);
    this.began.catch(() => undefined);
  }

  async lock(scope: string, mode: LockMode): Promise<void> {
    if (this.scopes.holds(scope, mode)) return;
    if (!this.began) {
      // Before the snapshot: taken on the session now (the declared ones first, in their order), and the BEGIN
      // goes after them. Sent in this turn, so that no read of the transaction leaves before them.
      const send = (sql: string, values: unknown[]) => super.query(sql, values);
      const declared = this.scopes.takeWanted(send);
      const own = this.scopes.holds(scope, mode) ? undefined : this.scopes.take(scope, mode, send);
      await Promise.all([declared, own]);
      return;
    }
    // Kept, as a failed statement is: `fn` may catch it and throw another error.
    this.restart ??= new RestartWithLocks(scope, mode);
    throw this.restart;
  }

  nextNumber(counter: string, floor: number): Promise<number> {
    return this.numbers.next(counter, floor);
  }

  /**
   * Per table, what the database answered for each id read (undefined: none). The snapshot does not move,
   * so a record read again (a content tree's root, the space a check reads twice) costs no round trip. An
   * insert of an id read as absent that fails as taken is a concurrent writer's, not a conflict.
   */
  private readonly answered = new Map<string, Map<string, StoredRecord | undefined>>();

  override async get(table: string, id: string): Promise<StoredRecord | undefined> {
    const changed = this.staged.get(table);
    if (changed?.has(id)) return changed.get(id) ?? undefined;
    if (this.answered.get(table)?.has(id)) return this.answered.get(table)!.get(id);
    const found = await super.get(table, id);
    // Looked up again after the wait: gets of one table read together (getMany) each add theirs to one map.
    let known = this.answered.get(table);
    if (!known) this.answered.set(table, (known = new Map()));
    known.set(id, found);
    return found;
  }

  override async list(table: string, query: ListQuery): Promise<ListResult> {
    if (this.dirty.has(table)) await this.flushTable(table);
    return super.list(table, query);
  }

  async insert(table: string, record: StoredRecord): Promise<void> {
    this.tableLayout(table);
    const changed = this.staged.get(table);
    if (changed?.get(record.id)) throw new StoreConflictError(table, record.id);
    // Deleted earlier in this transaction, the stored record is still there until the changes are written.
    const deleted = changed?.has(record.id) === true;
    this.stage(table, record.id, deepFreeze(record));
    if (deleted) return;
    let fresh = this.fresh.get(table);
    if (!fresh) this.fresh.set(table, (fresh = new Set()));
    fresh.add(record.id);
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
    if (record === null) this.fresh.get(table)?.delete(id);
    this.dirty.add(table);
  }

  /**
   * Writes a table's staged records (new ones as one insert, the others as one upsert, deletes as one
   * delete), moving its counts. Written, a new record is one to upsert if written again.
   */
  private async flushTable(table: string): Promise<void> {
    this.dirty.delete(table);
    const layout = this.tableLayout(table);
    const fresh = this.fresh.get(table);
    this.fresh.delete(table);
    const inserts: StoredRecord[] = [];
    const puts: StoredRecord[] = [];
    const deletes: string[] = [];
    for (const [id, record] of this.staged.get(table)!) {
      if (!record) deletes.push(id);
      else if (fresh?.has(id)) inserts.push(record);
      else puts.push(record);
    }
    await Promise.all([
      inserts.length > 0 && this.write(layout, inserts, 'insert'),
      puts.length > 0 && this.write(layout, puts, 'upsert'),
      deletes.length > 0 && this.remove(layout, deletes),
    ]);
  }

  /** Inserts records that are new (a taken id: StoreConflictError), or upserts records, moving their counts. */
  private async write(table: TableLayout, records: StoredRecord[], mode: 'insert' | 'upsert'): Promise<void> {
    try {
      await this.writeRecords(table, records, mode);
    } catch (error) {
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      const taken = /\(id\)=\((.*)\) already exists/.exec((error as { detail?: string }).detail ?? '')?.[1];
      // Read as absent by this transaction: another added it since the snapshot. Run again, and see it.
      const known = taken === undefined ? undefined : this.answered.get(table.table);
      if (known?.has(taken!) && known.get(taken!) === undefined) throw new ConcurrentInsert(table.table, taken!, error);
      throw new StoreConflictError(table.table, taken ?? records[0].id);
    }
  }

  private async writeRecords(table: TableLayout, records: StoredRecord[], mode: 'insert' | 'upsert'): Promise<void> {
    const params = new Params();
    const columns: (Buffer | null)[][] = table.indexes.flatMap(() => [[], []]);
    for (const record of records) indexColumns(table, record).forEach((value, i) => columns[i].push(value));
    const names = ['id', 'data', ...table.indexes.flatMap((index) => [ident(index.group), ident(index.key)])];
    let input: string;
    if (records.length === 1) {
      // One record, the common case, as scalars: no arrays for pg to build and PostgreSQL to parse.
      const values = [params.add(records[0].id, 'text'), params.add(JSON.stringify(records[0]), 'text'), ...columns.map((column) => params.add(column[0], 'bytea'))];
      input = `input AS (SELECT ${values.map((value, at) => `${value} AS ${names[at]}`).join(', ')})`;
    } else {
      const inputs = [
        params.add(records.map((record) => record.id), 'text[]'),
        params.add(records.map((record) => JSON.stringify(record)), 'text[]'),
        ...columns.map((column) => params.add(column, 'bytea[]')),
      ];
      input = `input AS (SELECT * FROM unnest(${inputs.join(', ')}) AS x(${names.join(', ')}))`;
    }
    let upsert = `INSERT INTO ${table.sql} (${names.join(', ')}) SELECT ${names.join(', ')} FROM input`;
    if (mode === 'upsert') upsert += ` ON CONFLICT (id) DO UPDATE SET ${names.slice(1).map((name) => `${name} = excluded.${name}`).join(', ')}`;
    // The rows an upsert replaces, locked: one that a concurrent writer deleted since the snapshot is then a
    // serialization failure (the write runs again and sees it gone), where the insert alone would bring it back.
    const old = `old AS (SELECT ${names.filter((name) => name !== 'data').map((name) => `t.${name}`).join(', ')} FROM ${table.sql} t JOIN input USING (id) FOR UPDATE OF t)`;
    if (table.indexes.length === 0) {
      // The statement reads `old`, so that its lock is taken (a CTE no one reads is not run).
      await this.query(mode === 'insert' ? `WITH ${input} ${upsert}` : `WITH ${input}, ${old}, up AS (${upsert}) SELECT count(*) FROM old`, params.values, true);
      return;
    }
    if (mode === 'insert') {
      await this.query(`WITH ${input}, up AS (${upsert}), ${this.countDeltas(table, params, [['input', 1]])}`, params.values, true);
      return;
    }
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
      `INSERT INTO ${counts} (tbl, idx, grp, stripe, n) SELECT ${params.add(table.table, 'text')}, idx, grp, pg_backend_pid() % ${COUNT_STRIPES}, sum(d) FROM deltas GROUP BY idx, grp HAVING sum(d) <> 0 ` +
      `ON CONFLICT (tbl, idx, grp, stripe) DO UPDATE SET n = ${counts}.n + excluded.n`
    );
  }
}


/**
 * An insert of an id this transaction had read as absent, which a concurrent writer added since its
 * snapshot: retried as a serialization failure (its SQLSTATE), so that the next attempt sees the record.
 */
class ConcurrentInsert extends Error {
  readonly code = '40001';

  constructor(table: string, id: string, cause: unknown) {
    super(`${table}: ${JSON.stringify(id)} was added by a concurrent writer`, { cause });
    this.name = 'ConcurrentInsert';
  }
}
