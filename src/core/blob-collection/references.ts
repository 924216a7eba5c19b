import type { ReadTransaction, SortKey } from '../../store/types.js';
import { visitLeafValues } from '../content/btree.js';
import type { FileEntry } from '../content/model.js';
import { pause } from '../pause.js';
import { INDEXES, TABLES, type BlobHoldRecord, type RevisionRecord, type SpaceRecord } from '../records.js';
import { holds } from './holds.js';

/**
 * What keeps bytes in the blob store: a file of any revision of any space (deleted spaces too, until
 * they are purged: revisions never change, so an old revision's files stay readable), the document of an
 * OpenAPI specification version, and a hold that has not ended (a PDF whose URL still works).
 */

/** How many records one list reads while walking every space. */
const PAGE = 200;

/** How many lookups of candidates are made together. */
const LOOKUP_BATCH = 200;

/**
 * The keys among `candidates` that something in the store references at `now`. Run in one read
 * transaction: one state of the whole store, so that a reference moved from one record to another while
 * the walk runs (a space duplicated, then the original purged) is seen in one of them.
 */
export async function referencedBlobs(tx: ReadTransaction, candidates: ReadonlySet<string>, now: string): Promise<Set<string>> {
  const referenced = new Set<string>();
  if (candidates.size === 0) return referenced;
  const keys = [...candidates];
  for (let start = 0; start < keys.length; start += LOOKUP_BATCH) {
    await Promise.all(
      keys.slice(start, start + LOOKUP_BATCH).map(async (key) => {
        const [versions, hold] = await Promise.all([
          tx.list(TABLES.openAPISpecVersions, { index: INDEXES.openAPISpecVersionsByDocument, value: key, limit: 0 }),
          tx.get(TABLES.blobHolds, key) as Promise<BlobHoldRecord | undefined>,
        ]);
        if (versions.count > 0 || holds(hold, now)) referenced.add(key);
      }),
    );
  }
  await addFileReferences(tx, candidates, referenced);
  return referenced;
}

/** Adds to `referenced` the candidates that a file of some revision of some space has as its bytes. */
async function addFileReferences(tx: ReadTransaction, candidates: ReadonlySet<string>, referenced: Set<string>): Promise<void> {
  const seen = new Set<string>();
  const visit = (values: readonly unknown[]) => {
    for (const file of values as FileEntry[]) if (candidates.has(file.digest)) referenced.add(file.digest);
  };
  let walked = 0;
  for await (const space of pages<SpaceRecord>(tx, TABLES.spaces, INDEXES.everySpace, null, (record) => [record.id])) {
    // An in-memory store answers without waiting: let requests in now and then.
    if (++walked % PAGE === 0) await pause();
    for await (const revision of pages<RevisionRecord>(tx, TABLES.revisions, INDEXES.revisionsBySpace, space.id, (record) => [record.createdAt, record.id])) {
      await visitLeafValues(tx, [revision.content.files], seen, visit);
    }
  }
}

/** Every record of one group of an index, read a page at a time. */
async function* pages<T extends { id: string }>(
  tx: ReadTransaction,
  table: string,
  index: (typeof INDEXES)[keyof typeof INDEXES],
  value: string | null,
  keyOf: (record: T) => SortKey,
): AsyncGenerator<T> {
  let after: SortKey | undefined;
  for (;;) {
    const { items } = await tx.list(table, { index, value, limit: PAGE, ...(after && { after }) });
    for (const item of items as unknown as T[]) yield item;
    if (items.length < PAGE) return;
    after = keyOf(items[items.length - 1] as unknown as T);
  }
}
