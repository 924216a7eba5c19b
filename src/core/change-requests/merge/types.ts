import type { FileEntry, PageEntry } from '../../content/model.js';

/**
 * The types of the three-way merge of revisions (three-way.ts): what each side gives, what the merge
 * gives back, and how it reports what clashed.
 */

/** One side of a merge: a revision's pages by id and its files. A PageTree (content/model.ts) is one. */
export interface MergeSide {
  readonly byId: ReadonlyMap<string, PageEntry>;
  readonly files: readonly FileEntry[];
}

/** Page bodies by document id (PageEntry.document): the documents of every page that bodiesToRead() names. */
export type Bodies = ReadonlyMap<string, string>;

/** What clashed. */
export type ConflictReason =
  /** Deleted on one side, changed on the other. */
  | 'deleted'
  /** One of the page's own fields (title, emoji, ... `field` says which), or a file's entry. */
  | 'field'
  /** Its slug: renamed differently on both sides. */
  | 'slug'
  /** Its place: moved (another parent or another position) differently on both sides. */
  | 'place'
  /** Its body: both sides changed the same lines differently. */
  | 'body'
  /** Its slug was taken by a sibling from the other side: it got a suffix. */
  | 'slug-taken'
  /** Its parent is gone from the result: it moved up to the nearest ancestor that is still there. */
  | 'parent-deleted'
  /** The two sides moved pages under each other: it was put back where the change request has it. */
  | 'cycle';

/** One conflict, in the order pages then files, by id. */
export interface MergeConflict {
  readonly kind: 'page' | 'file';
  readonly id: string;
  readonly reason: ConflictReason;
  /** The field, for `field` conflicts. */
  readonly field?: string;
}

/**
 * The result of a three-way merge: the pages (by id, in id order) with their final slug, path, parent
 * and order; the bodies that the merge wrote (page id → Markdown; such a page has no `document`); the
 * files; and what clashed (empty: a clean merge).
 */
export interface MergedContent {
  readonly pages: ReadonlyMap<string, PageEntry>;
  readonly bodies: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, FileEntry>;
  readonly conflicts: readonly MergeConflict[];
}
