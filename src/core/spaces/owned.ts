import type { IndexDefinition, StoredRecord, WriteTransaction } from '../../store/types.js';
import { INDEXES, TABLES, customFieldValueId } from '../records.js';

/** A table of records that belong to one space, found by an index on their `spaceId`. */
interface Owned {
  readonly table: string;
  readonly index: IndexDefinition;
  /** Whether the records only make sense in the space's organization (dropped when it is transferred). */
  readonly organizationBound: boolean;
  /** How a duplicate of the space copies a record (absent: it is not copied). */
  readonly copy?: (record: StoredRecord, spaceId: string, newId: () => string) => StoredRecord;
}

/**
 * Everything that belongs to a space: removed with it, partly dropped when it changes organization,
 * partly copied by a duplicate. A later kind of record that lives in a space is one more line here:
 * give its records a `spaceId` and an index by it. (The current revision is copied by the duplicate
 * itself: a duplicate starts a new history.)
 */
const OWNED_BY_SPACE: readonly Owned[] = [
  { table: TABLES.revisions, index: INDEXES.revisionsBySpace, organizationBound: false },
  // The nodes of the revisions' content maps and the page bodies (content/): copied by the duplicate itself.
  { table: TABLES.contentNodes, index: INDEXES.contentNodesBySpace, organizationBound: false },
  { table: TABLES.contentDocuments, index: INDEXES.contentDocumentsBySpace, organizationBound: false },
  { table: TABLES.changeRequests, index: INDEXES.changeRequestsBySpace, organizationBound: false },
  // Review requests name members of the space's organization: dropped when it moves to another one.
  { table: TABLES.changeRequestReviewers, index: INDEXES.changeRequestReviewersBySpace, organizationBound: true },
  { table: TABLES.comments, index: INDEXES.commentsBySpace, organizationBound: false },
  // Replies go with their comments (comments/): a duplicate starts without discussions.
  { table: TABLES.commentReplies, index: INDEXES.commentRepliesBySpace, organizationBound: false },
  // Grants name teams, and custom field values name fields, of the space's organization.
  {
    table: TABLES.spaceGrants,
    index: INDEXES.spaceGrantsBySpace,
    organizationBound: true,
    copy: (record, spaceId, newId) => ({ ...record, id: newId(), spaceId }),
  },
  // The old paths of its moved pages (content/moved-pages.ts): a duplicate starts a new history.
  { table: TABLES.pageMoves, index: INDEXES.pageMovesBySpace, organizationBound: false },
  // A space's places on the sites of its organization (sites/): not copied by a duplicate.
  { table: TABLES.siteSpaces, index: INDEXES.siteSpacesBySpace, organizationBound: true },
  {
    table: TABLES.customFieldValues,
    index: INDEXES.customFieldValuesBySpace,
    organizationBound: true,
    copy: (record, spaceId) => ({ ...record, id: customFieldValueId(spaceId, record.fieldId as string), spaceId }),
  },
];

async function removeOwned(tx: WriteTransaction, spaceId: string, which: (owned: Owned) => boolean): Promise<void> {
  for (const owned of OWNED_BY_SPACE.filter(which)) {
    const { items } = await tx.list(owned.table, { index: owned.index, value: spaceId });
    for (const record of items) await tx.delete(owned.table, record.id);
  }
}

/** Removes a space and everything that belongs to it, for good. */
export async function purgeSpace(tx: WriteTransaction, spaceId: string): Promise<void> {
  await removeOwned(tx, spaceId, () => true);
  await tx.delete(TABLES.spaces, spaceId);
}

/** Removes what belongs to a space only within its organization (before it moves to another one). */
export async function dropOrganizationBound(tx: WriteTransaction, spaceId: string): Promise<void> {
  await removeOwned(tx, spaceId, (owned) => owned.organizationBound);
}

/** Copies to a duplicate the settings that belong to a space (grants, custom field values). */
export async function copyOwned(tx: WriteTransaction, fromSpaceId: string, toSpaceId: string, newId: () => string): Promise<void> {
  for (const owned of OWNED_BY_SPACE) {
    if (!owned.copy) continue;
    const { items } = await tx.list(owned.table, { index: owned.index, value: fromSpaceId });
    for (const record of items) await tx.insert(owned.table, owned.copy(record, toSpaceId, newId));
  }
}
