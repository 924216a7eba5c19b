import type { RevisionContent, RevisionRecord } from '../records.js';
import { EMPTY_MAP } from './btree.js';
import type { PageCover } from './page-cover.js';
import type { PageLayoutSettings } from './page-layout.js';

/**
 * The content model: what a revision holds (docs/api-notes.md "Content", docs/content-model.md). A revision
 * is four persistent maps (btree.ts): pages by id, each page's children in order, pages by path, files by
 * id. The types here are the values of those maps and the materialized tree other areas read.
 */

/** The kinds of page: a document with a body, a group of pages (top level only), a link, a computed page. */
export type PageType = 'document' | 'group' | 'link' | 'computed';

/** The kinds of page that have a layout and a cover (a computed page is shown as the document it expands into). */
export const LAYOUT_TYPES: ReadonlySet<PageType> = new Set(['document', 'computed']);

/** The kinds of page that may have children. */
export const PARENT_TYPES: ReadonlySet<PageType> = new Set(['document', 'group']);

/** Where a link page points: a URL, or a page of the same revision. */
export type LinkTarget = { readonly kind: 'url'; readonly url: string } | { readonly kind: 'page'; readonly page: string };

/** The source of a computed page: content generated from an OpenAPI specification of the organization. */
export interface ComputedSource {
  readonly type: 'builtin:openapi';
  readonly dependencies: { readonly spec: { readonly ref: { readonly kind: 'openapi'; readonly spec: string } } };
  readonly props: { readonly models?: boolean; readonly doc?: 'info' | 'models' | 'operation' | 'operations' | 'tag' };
}

/** A page as a revision stores it: the value of the `pages` map. Its children are in the `children` map. */
export interface PageEntry {
  readonly id: string;
  readonly type: PageType;
  readonly title: string;
  /** Its segment of the path: unique among its siblings; derived from the title when it is inserted, then kept. */
  readonly slug: string;
  /** The slugs from the top level down to it, joined by `/`: unique in the revision. */
  readonly path: string;
  /** Its parent page's id; null at the top level. */
  readonly parent: string | null;
  /** Its fractional ordering key among its siblings (ordering/keys.ts). */
  readonly order: string;
  readonly emoji?: string;
  readonly icon?: string;
  readonly description?: string;
  readonly hidden?: true;
  readonly noIndex?: true;
  readonly noRobotsIndex?: true;
  /** Document pages: the id of the ContentDocumentRecord holding the Markdown body (absent: empty). */
  readonly document?: string;
  /** Link pages: where the link points. */
  readonly target?: LinkTarget;
  /** Computed pages: what generates them. */
  readonly computed?: ComputedSource;
  /** Document and computed pages: the layout options set away from the defaults (page-layout.ts). */
  readonly layout?: PageLayoutSettings;
  /** Document and computed pages: the cover image (page-cover.ts). */
  readonly cover?: PageCover;
  readonly createdAt: string;
  /** When its own fields or body last changed (a move or a parent's change leaves it alone). */
  readonly updatedAt: string;
}

/** A file as a revision stores it: the value of the `files` map. The bytes are in the blob store. */
export interface FileEntry {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  /** The size in bytes. */
  readonly size: number;
  /** The SHA-256 of the bytes in hex: their key in the blob store. */
  readonly digest: string;
  /** The git blob id (SHA-1) of the bytes, for `git.oid`. */
  readonly gitOid: string;
  readonly dimensions?: { readonly width: number; readonly height: number };
  readonly createdAt: string;
}

/** A page with its children in order. */
export interface PageNode extends PageEntry {
  readonly pages: readonly PageNode[];
}

/** A whole revision, materialized: for reading everything at once (merge, links, search, PDF). */
export interface PageTree {
  readonly revision: RevisionRecord;
  /** The top-level pages, in order. */
  readonly pages: readonly PageNode[];
  readonly byId: ReadonlyMap<string, PageNode>;
  readonly byPath: ReadonlyMap<string, PageNode>;
  /** Every file, by id. */
  readonly files: readonly FileEntry[];
}

/** The content of a new space: four empty maps. */
export const EMPTY_CONTENT: RevisionContent = { pages: EMPTY_MAP, children: EMPTY_MAP, paths: EMPTY_MAP, files: EMPTY_MAP };

/** The key of a page in the `children` map: its parent ('' at the top level), a NUL, its ordering key. */
export const childKey = (parent: string | null, order: string) => `${parent ?? ''}\u0000${order}`;

/** The range of `children` keys of one parent: [from, to). */
export const childRange = (parent: string | null): [string, string] => [`${parent ?? ''}\u0000`, `${parent ?? ''}\u0001`];

/** The path of a page with `slug` under a parent with `parentPath` (null: top level). */
export const pathUnder = (parentPath: string | null, slug: string) => (parentPath === null ? slug : `${parentPath}/${slug}`);
