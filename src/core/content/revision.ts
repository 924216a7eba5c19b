import type { ReadTransaction, WriteTransaction } from '../../store/types.js';
import { TABLES, type ContentDocumentRecord, type RevisionContent, type RevisionRecord } from '../records.js';
import { copyMap, diffMaps, readMap } from './btree.js';
import { pause } from '../pause.js';
import { childRange, type FileEntry, type PageEntry, type PageNode, type PageTree } from './model.js';

/**
 * Reading revisions: one page, file or list of children in O(log n) node reads, or the whole tree at once.
 * Every function takes a transaction and never writes.
 */

/** Loads a revision; a missing one is a broken reference (a bug), not a client error. */
export async function loadRevision(tx: ReadTransaction, revisionId: string): Promise<RevisionRecord> {
  const revision = (await tx.get(TABLES.revisions, revisionId)) as RevisionRecord | undefined;
  if (!revision) throw new Error(`Revision ${revisionId} is missing`);
  return revision;
}

/** A page of a revision by id. */
export async function readPage(tx: ReadTransaction, revision: RevisionRecord, pageId: string): Promise<PageEntry | undefined> {
  return (await readMap(tx, revision.content.pages).get(pageId)) as PageEntry | undefined;
}

/** A page of a revision by path (`guides/getting-started`). */
export async function readPageByPath(tx: ReadTransaction, revision: RevisionRecord, path: string): Promise<PageEntry | undefined> {
  const id = (await readMap(tx, revision.content.paths).get(path)) as string | undefined;
  return id === undefined ? undefined : readPage(tx, revision, id);
}

/** The ids of a page's children (null: the top level), in order; with `pauseEvery`, pausing after that many each time. */
export async function childIds(tx: ReadTransaction, content: RevisionContent, parent: string | null, pauseEvery = Infinity): Promise<string[]> {
  const ids: string[] = [];
  for await (const [, id] of readMap(tx, content.children).entries(...childRange(parent))) {
    if (ids.push(id as string) % pauseEvery === 0) await pause();
  }
  return ids;
}

/** A page's children (null: the top level), in order. */
export async function readChildren(tx: ReadTransaction, revision: RevisionRecord, parent: string | null): Promise<PageEntry[]> {
  const pages = readMap(tx, revision.content.pages);
  const ids = await childIds(tx, revision.content, parent);
  return Promise.all(ids.map(async (id) => (await pages.get(id)) as PageEntry));
}

/** A file of a revision by id. */
export async function readFile(tx: ReadTransaction, revision: RevisionRecord, fileId: string): Promise<FileEntry | undefined> {
  return (await readMap(tx, revision.content.files).get(fileId)) as FileEntry | undefined;
}

/** A page's stored body (undefined for a page without one); a missing one is a broken reference (a bug). */
export async function readDocument(tx: ReadTransaction, page: PageEntry): Promise<ContentDocumentRecord | undefined> {
  if (page.document === undefined) return undefined;
  const document = (await tx.get(TABLES.contentDocuments, page.document)) as ContentDocumentRecord | undefined;
  if (!document) throw new Error(`Document ${page.document} of page ${page.id} is missing`);
  return document;
}

/** A page's Markdown body ('' for a page without one). */
export async function readMarkdown(tx: ReadTransaction, page: PageEntry): Promise<string> {
  return (await readDocument(tx, page))?.markdown ?? '';
}

/** Every entry of a map, in key order; with `pauseEvery`, pausing after that many entries each time. */
async function allEntries<T>(tx: ReadTransaction, root: RevisionContent[keyof RevisionContent], pauseEvery = Infinity): Promise<[string, T][]> {
  const out: [string, T][] = [];
  for await (const entry of readMap(tx, root).entries()) {
    if (out.push(entry as [string, T]) % pauseEvery === 0) await pause();
  }
  return out;
}

/** A whole revision, materialized, by id: see readPageTree. */
export async function loadPageTree(tx: ReadTransaction, revisionId: string): Promise<PageTree> {
  return readPageTree(tx, await loadRevision(tx, revisionId));
}

/**
 * A whole revision, materialized: every page with its children in order, by id and by path, and every file.
 * With `pauseEvery`, reading pauses after that many entries each time, so that other requests go on while
 * a long work (a search index) reads a large revision: a read transaction is a snapshot, a pause mixes nothing.
 */
export async function readPageTree(tx: ReadTransaction, revision: RevisionRecord, pauseEvery?: number): Promise<PageTree> {
  const nodes = new Map<string, PageNode & { pages: PageNode[] }>();
  for (const [id, entry] of await allEntries<PageEntry>(tx, revision.content.pages, pauseEvery)) nodes.set(id, { ...entry, pages: [] });
  const top: PageNode[] = [];
  // The children map is sorted by parent, then order: appending in key order gives each list in order.
  for (const [key, id] of await allEntries<string>(tx, revision.content.children, pauseEvery)) {
    const parent = key.slice(0, key.indexOf('\u0000'));
    const node = nodes.get(id)!;
    if (parent === '') top.push(node);
    else nodes.get(parent)!.pages.push(node);
  }
  const byPath = new Map<string, PageNode>();
  for (const node of nodes.values()) byPath.set(node.path, node);
  const files = (await allEntries<FileEntry>(tx, revision.content.files)).map(([, file]) => file);
  return { revision, pages: top, byId: nodes, byPath, files };
}

/** What changed between two revisions, page by page and file by file. */
export interface RevisionDiff {
  readonly pages: EntryDiff<PageEntry>;
  readonly files: EntryDiff<FileEntry>;
}

/** Entries only in the first revision, only in the second, and in both but different. */
export interface EntryDiff<T> {
  readonly removed: readonly T[];
  readonly added: readonly T[];
  readonly changed: readonly { readonly before: T; readonly after: T }[];
}

/**
 * What changed from revision `a` to revision `b`: pages and files added, removed or changed (a page's
 * fields, its body reference, its place). Subtrees the two share are skipped, so the cost follows the
 * size of the change. Each list is sorted by id.
 */
export async function diffRevisions(tx: ReadTransaction, a: RevisionRecord, b: RevisionRecord): Promise<RevisionDiff> {
  const diff = async <T>(key: 'pages' | 'files'): Promise<EntryDiff<T>> => {
    const { removed, added, changed } = await diffMaps(tx, a.content[key], b.content[key]);
    return {
      removed: removed.map(([, value]) => value as T),
      added: added.map(([, value]) => value as T),
      changed: changed.map(([, before, after]) => ({ before: before as T, after: after as T })),
    };
  };
  return { pages: await diff<PageEntry>('pages'), files: await diff<FileEntry>('files') };
}

/**
 * Copies a revision's content into another space (a duplicate): every map node and every page body under
 * new ids owned by that space, so that purging either space leaves the other whole.
 */
export async function cloneContent(tx: WriteTransaction, content: RevisionContent, spaceId: string, newId: () => string, now: string): Promise<RevisionContent> {
  const documents = new Map<string, string>();
  // Bodies first, so that the copied page entries can point at the copies.
  for (const [, entry] of await allEntries<PageEntry>(tx, content.pages)) {
    if (entry.document === undefined || documents.has(entry.document)) continue;
    const body = (await tx.get(TABLES.contentDocuments, entry.document)) as ContentDocumentRecord;
    const copy: ContentDocumentRecord = { ...body, id: newId(), spaceId, createdAt: now };
    await tx.insert(TABLES.contentDocuments, copy);
    documents.set(entry.document, copy.id);
  }
  const repoint = (value: unknown) => {
    const page = value as PageEntry;
    return page.document === undefined ? page : { ...page, document: documents.get(page.document)! };
  };
  return {
    pages: await copyMap(tx, content.pages, spaceId, newId, repoint),
    children: await copyMap(tx, content.children, spaceId, newId),
    paths: await copyMap(tx, content.paths, spaceId, newId),
    files: await copyMap(tx, content.files, spaceId, newId),
  };
}
