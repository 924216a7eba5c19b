import { createHash } from 'node:crypto';
import { groupOf, indexName, sortKeyOf } from '../sorted-index.js';
import type { IndexDefinition, StoreSchema, StoredRecord } from '../types.js';
import { keyBytes } from './key-bytes.js';

/**
 * How the store's tables sit in PostgreSQL. Each table of the schema is a SQL table `t_<name>` with the
 * record's id, its JSON text, and for each declared index two bytea columns: the record's group in it
 * (`g_<hash>`) and its sort key (`k_<hash>`), both null when the record is not in the index, under one
 * btree index. The bytes order as the store orders (key-bytes.ts), so a page is a range scan. Group sizes
 * are kept in the `counts` table, so a list's `count` is one row, not a scan of the group.
 */

/** A PostgreSQL identifier, quoted. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** One declared index as columns. */
export interface IndexLayout {
  readonly def: IndexDefinition;
  /** The index's name in the counts table and in column names: stable for the same `by` and `order`. */
  readonly name: string;
  readonly group: string;
  readonly key: string;
}

/** One table as SQL. */
export interface TableLayout {
  readonly table: string;
  /** The quoted, schema-qualified SQL table. */
  readonly sql: string;
  readonly indexes: readonly IndexLayout[];
  /** The layout of an index, by indexName. */
  readonly byName: ReadonlyMap<string, IndexLayout>;
}

/** The SQL layout of a schema in a PostgreSQL schema (namespace). */
export interface Layout {
  readonly namespace: string;
  readonly tables: ReadonlyMap<string, TableLayout>;
  /** The quoted, qualified name of one of the store's own tables (`meta`, `counts`, `blobs`). */
  own(name: string): string;
}

/** A short, stable hash of an index definition, for column names (PostgreSQL cuts identifiers at 63 bytes). */
const hashOf = (def: IndexDefinition) => createHash('sha1').update(indexName(def)).digest('hex').slice(0, 12);

/** Lays out a schema in the PostgreSQL schema `namespace`. */
export function layoutOf(namespace: string, schema: StoreSchema): Layout {
  const qualified = (name: string) => `${ident(namespace)}.${ident(name)}`;
  const tables = new Map<string, TableLayout>();
  for (const [table, defs] of Object.entries(schema)) {
    const indexes = defs.map((def) => {
      const hash = hashOf(def);
      return { def, name: indexName(def), group: `g_${hash}`, key: `k_${hash}` };
    });
    tables.set(table, { table, sql: qualified(`t_${table}`), indexes, byName: new Map(indexes.map((index) => [index.name, index])) });
  }
  return { namespace, tables, own: qualified };
}

/** The group and key bytes of a record in each index of its table (null where it is not in one). */
export function indexColumns(layout: TableLayout, record: StoredRecord): (Buffer | null)[] {
  const values: (Buffer | null)[] = [];
  for (const { def } of layout.indexes) {
    const group = groupOf(def, record);
    const key = group === undefined ? undefined : sortKeyOf(def, record);
    values.push(key ? keyBytes([group!]) : null, key ? keyBytes(key) : null);
  }
  return values;
}
