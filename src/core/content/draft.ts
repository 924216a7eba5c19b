import type { WriteContext } from '../context.js';
import { badRequest } from '../errors.js';
import { keyBetween } from '../ordering/keys.js';
import { pacer } from '../pause.js';
import { TABLES, type ChangeRequestRecord, type ContentDocumentRecord, type RevisionGitRecord, type RevisionRecord, type RevisionType } from '../records.js';
import { TreeMap } from './btree.js';
import {
  LAYOUT_TYPES,
  PARENT_TYPES,
  childKey,
  childRange,
  pathUnder,
  type ComputedSource,
  type FileEntry,
  type LinkTarget,
  type PageEntry,
  type PageType,
} from './model.js';
import { gitTextOid } from './git.js';
import { loadRevision, readMarkdown } from './revision.js';
import { MAX_SLUG_LENGTH, slugProblem, slugify, withSuffix } from './slugs.js';
import { MAX_TITLE_LENGTH } from './page-fields.js';
import type { PageCover } from './page-cover.js';
import { layoutOf, settleLayout, type PageLayoutSettings } from './page-layout.js';

export { MAX_TITLE_LENGTH };

/** A page to insert. `id`, `slug` and `order` are for callers that re-create a page as it was (merge, revert). */
export interface NewPage {
  readonly id?: string;
  readonly type: PageType;
  readonly title: string;
  readonly slug?: string;
  readonly order?: string;
  readonly emoji?: string;
  readonly icon?: string;
  readonly description?: string;
  readonly hidden?: boolean;
  readonly noIndex?: boolean;
  readonly noRobotsIndex?: boolean;
  /** The body of a document page ('' or absent: empty). */
  readonly markdown?: string;
  /** Re-uses a stored body as is (merge), instead of `markdown`. */
  readonly document?: string;
  /** The Git blob id of `markdown`'s file, when the caller read it from a Git tree (else the body is hashed). */
  readonly gitOid?: string;
  readonly target?: LinkTarget;
  readonly computed?: ComputedSource;
  /** Layout options (document and computed pages); those equal to the defaults are not stored. */
  readonly layout?: PageLayoutSettings;
  /** A cover image (document and computed pages); null: none. */
  readonly cover?: PageCover | null;
  readonly createdAt?: string;
  readonly updatedAt?: string;
}

/** Changes to a page's own fields; absent fields stay. An empty emoji, icon or description removes it. */
export interface PagePatch {
  readonly title?: string;
  readonly slug?: string;
  readonly emoji?: string;
  readonly icon?: string;
  readonly description?: string;
  readonly hidden?: boolean;
  readonly noIndex?: boolean;
  readonly noRobotsIndex?: boolean;
  readonly markdown?: string;
  /** The Git blob id of `markdown`'s file, when the caller has it (an export's commit); else the body is hashed. */
  readonly gitOid?: string;
  /** Points the page at a stored body as is (merge), instead of `markdown`; '' for none. */
  readonly document?: string;
  readonly target?: LinkTarget;
  readonly computed?: ComputedSource;
  /** Layout options to set (document and computed pages); the others stay. */
  readonly layout?: PageLayoutSettings;
  /** A cover image to set (document and computed pages); null removes it. */
  readonly cover?: PageCover | null;
  /** The `updatedAt` to record when something changed (merge keeps the side's); default now. */
  readonly updatedAt?: string;
}

/**
 * The patch that gives a page exactly `page`'s own fields (not its slug, place or body): absent ones are
 * removed (an empty text, a false flag, a null cover), and the whole layout is set so that options left at
 * their defaults are reset too.
 */
export function ownFieldsPatch(page: PageEntry): PagePatch {
  return {
    title: page.title,
    emoji: page.emoji ?? '',
    icon: page.icon ?? '',
    description: page.description ?? '',
    hidden: page.hidden ?? false,
    noIndex: page.noIndex ?? false,
    noRobotsIndex: page.noRobotsIndex ?? false,
    ...(page.target !== undefined && { target: page.target }),
    ...(page.computed !== undefined && { computed: page.computed }),
    ...(LAYOUT_TYPES.has(page.type) && { layout: layoutOf(page.layout), cover: page.cover ?? null }),
  };
}

/** What a new revision records about how it was made. */
export interface CommitMeta {
  readonly parents: readonly string[];
  readonly type: RevisionType;
  readonly changeRequestId?: string;
  /** The Git commit it comes from (a Git import), for the revision's `git`. */
  readonly git?: RevisionGitRecord;
}

/** How many slugs of one title a parent may hold (`base` to `base-10000`) before an insert is refused. */
const MAX_SLUG_CANDIDATES = 10_000;

/** How many suffixed slugs freeSlug looks up together: a few hundred pages titled alike take a few round trips. */
const SLUG_BATCH = 64;

/** How long a commit stores records before other work may run (pause.ts). */
const COMMIT_SLICE_MS = 2;

const OPTIONAL_TEXT = ['emoji', 'icon', 'description'] as const;
const FLAGS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/** A page entry without the absent or false optional fields, so that equal pages store equal values. */
function tidy(page: Record<string, unknown>): PageEntry {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(page)) {
    if (value === undefined || value === false) continue;
    if ((OPTIONAL_TEXT as readonly string[]).includes(field) && value === '') continue;
    out[field] = value;
  }
  return out as unknown as PageEntry;
}

function checkTitle(title: string): void {
  if (title.trim() === '') throw badRequest('title: must not be empty');
  if ([...title].length > MAX_TITLE_LENGTH) throw badRequest(`title: must be at most ${MAX_TITLE_LENGTH} characters`);
}

/**
 * A working copy of a revision: pages and files are changed in memory, copy-on-write over the revision's
 * maps, then `commit` stores the nodes that changed and a new revision pointing at them. Every method checks
 * its input against the tree as it stands and throws a 400 ApiError naming the problem; a caller that
 * catches nothing and lets its transaction fail leaves the store as it was.
 */
export class RevisionDraft {
  private readonly documents: ContentDocumentRecord[] = [];

  private constructor(
    private readonly ctx: WriteContext,
    /** The revision the draft started from. */
    readonly base: RevisionRecord,
    private readonly pages: TreeMap,
    private readonly children: TreeMap,
    private readonly paths: TreeMap,
    private readonly files: TreeMap,
  ) {}

  /** Opens a draft over a revision. */
  static async open(ctx: WriteContext, revisionId: string): Promise<RevisionDraft> {
    const base = await loadRevision(ctx.tx, revisionId);
    const map = (key: keyof RevisionRecord['content']) => new TreeMap(ctx.tx, base.content[key], base.spaceId, () => ctx.ids.id());
    return new RevisionDraft(ctx, base, map('pages'), map('children'), map('paths'), map('files'));
  }

  /**
   * Reads the roots of the page maps (pages, children, paths) at once, for a batch of page changes: each
   * change reads them in turn (a page, its parent's children, its path), and a write transaction keeps what
   * it read (PostgreSQL: one round trip, not one a map).
   */
  async readPageRoots(): Promise<this> {
    const { pages, children, paths } = this.base.content;
    await this.ctx.tx.getMany(TABLES.contentNodes, [pages, children, paths].flatMap((root) => (root.node === null ? [] : [root.node])));
    return this;
  }

  /** A page by id, as it stands in the draft. */
  async page(id: string): Promise<PageEntry | undefined> {
    return (await this.pages.get(id)) as PageEntry | undefined;
  }

  /** A page's Markdown body as it stands in the draft ('' for none), a body this draft wrote included. */
  async markdownOf(page: PageEntry): Promise<string> {
    const written = page.document === undefined ? undefined : this.documents.find((document) => document.id === page.document);
    return written ? written.markdown : readMarkdown(this.ctx.tx, page);
  }

  /** A page by id; a 400 naming it when there is none. */
  async requirePage(id: string): Promise<PageEntry> {
    const page = await this.page(id);
    if (!page) throw badRequest(`No page ${id} in this content`);
    return page;
  }

  /** A page by path. */
  async pageAtPath(path: string): Promise<PageEntry | undefined> {
    const id = (await this.paths.get(path)) as string | undefined;
    return id === undefined ? undefined : this.page(id);
  }

  /** The ids of a page's children (null: the top level), in order. */
  async childIds(parent: string | null): Promise<string[]> {
    const ids: string[] = [];
    for await (const [, id] of this.children.entries(...childRange(parent))) ids.push(id as string);
    return ids;
  }

  /** The ids and ordering keys of a page's children (null: the top level), in order, without reading the pages. */
  async childOrders(parent: string | null): Promise<{ id: string; order: string }[]> {
    const [from, to] = childRange(parent);
    const out: { id: string; order: string }[] = [];
    for await (const [key, id] of this.children.entries(from, to)) out.push({ id: id as string, order: key.slice(from.length) });
    return out;
  }

  /** A page's children (null: the top level), in order. */
  async childrenOf(parent: string | null): Promise<PageEntry[]> {
    return Promise.all((await this.childIds(parent)).map((id) => this.requirePage(id)));
  }

  /** The number of pages. */
  get pageCount(): number {
    return this.pages.size;
  }

  /** Inserts a page under `into` (null: the top level) at position `at` (default: the end). */
  async insertPage(fields: NewPage, into: string | null, at?: number): Promise<PageEntry> {
    checkTitle(fields.title);
    const id = fields.id ?? this.ctx.ids.id();
    // The three maps are read at once (PostgreSQL: a round trip a level for all three, not for each in turn), and
    // their answers taken in order, so that the first problem found is the same as one after the other.
    const taken = this.pages.has(id);
    const parentOf = this.parentFor(fields.type, into);
    const orderOf = fields.order === undefined ? this.orderAt(into, at, undefined) : this.freeOrder(into, fields.order, id);
    const slugOf = parentOf.then((parent) => (fields.slug === undefined ? this.freeSlug(parent, slugify(fields.title)) : this.checkSlug(parent, fields.slug, id)));
    slugOf.catch(() => undefined);
    orderOf.catch(() => undefined);
    if (await taken) throw badRequest(`A page ${id} exists already`);
    const parent = await parentOf;
    const slug = await slugOf;
    const order = await orderOf;
    if (fields.type === 'link' && !fields.target) throw badRequest('target: a link page needs a target');
    if (fields.type === 'computed' && !fields.computed) throw badRequest('computed: a computed page needs its source');
    if (fields.layout !== undefined && !LAYOUT_TYPES.has(fields.type)) throw badRequest(`layout: a ${fields.type} page has no layout`);
    if (fields.cover && !LAYOUT_TYPES.has(fields.type)) throw badRequest(`cover: a ${fields.type} page has no cover`);
    const page = tidy({
      id,
      type: fields.type,
      title: fields.title,
      slug,
      path: pathUnder(parent?.path ?? null, slug),
      parent: into,
      order,
      emoji: fields.emoji,
      icon: fields.icon,
      description: fields.description,
      hidden: fields.hidden,
      noIndex: fields.noIndex,
      noRobotsIndex: fields.noRobotsIndex,
      document: fields.type === 'document' ? (fields.document ?? (await this.body(fields.markdown, fields.gitOid))) : undefined,
      target: fields.type === 'link' ? fields.target : undefined,
      computed: fields.type === 'computed' ? fields.computed : undefined,
      layout: settleLayout(undefined, fields.layout),
      cover: fields.cover ?? undefined,
      createdAt: fields.createdAt ?? this.ctx.now,
      updatedAt: fields.updatedAt ?? this.ctx.now,
    });
    await this.pages.set(id, page);
    await this.children.set(childKey(into, order), id);
    await this.paths.set(page.path, id);
    return page;
  }

  /** Changes a page's own fields (and, with `slug`, the paths of its subtree). */
  async updatePage(id: string, patch: PagePatch): Promise<PageEntry> {
    const page = await this.requirePage(id);
    if (patch.title !== undefined) checkTitle(patch.title);
    if ((patch.markdown !== undefined || patch.document !== undefined) && page.type !== 'document') {
      throw badRequest(`Page ${id} is a ${page.type} page: it has no document`);
    }
    if (patch.target !== undefined && page.type !== 'link') throw badRequest(`Page ${id} is a ${page.type} page: only link pages have a target`);
    if (patch.computed !== undefined && page.type !== 'computed') throw badRequest(`Page ${id} is a ${page.type} page: only computed pages have a source`);
    if (patch.layout !== undefined && !LAYOUT_TYPES.has(page.type)) throw badRequest(`Page ${id} is a ${page.type} page: it has no layout`);
    if (patch.cover && !LAYOUT_TYPES.has(page.type)) throw badRequest(`Page ${id} is a ${page.type} page: it has no cover`);
    const next: Record<string, unknown> = { ...page };
    if (patch.title !== undefined) next.title = patch.title;
    for (const field of [...OPTIONAL_TEXT, ...FLAGS] as const) if (patch[field] !== undefined) next[field] = patch[field];
    if (patch.target !== undefined) next.target = patch.target;
    if (patch.computed !== undefined) next.computed = patch.computed;
    if (patch.layout !== undefined) next.layout = settleLayout(page.layout, patch.layout);
    if (patch.cover !== undefined) next.cover = patch.cover ?? undefined;
    if (patch.markdown !== undefined) next.document = await this.body(patch.markdown, patch.gitOid);
    if (patch.document !== undefined) next.document = patch.document === '' ? undefined : patch.document;
    let updated = tidy(next);
    if (JSON.stringify(updated) !== JSON.stringify(page)) updated = { ...updated, updatedAt: patch.updatedAt ?? this.ctx.now };
    await this.pages.set(id, updated);
    if (patch.slug !== undefined && patch.slug !== page.slug) {
      const parent = page.parent === null ? null : await this.requirePage(page.parent);
      const slug = await this.checkSlug(parent, patch.slug, id);
      await this.repath(id, pathUnder(parent?.path ?? null, slug), { slug, updatedAt: patch.updatedAt ?? this.ctx.now });
    }
    return (await this.page(id))!;
  }

  /**
   * Moves a page: under `into` (null: the top level; undefined: its parent stays) at position `at` among
   * its new siblings (undefined: its place when the parent stays, else the end), or with the ordering key
   * `{ order }` (a caller putting a page back exactly where it was: revert), which must be free there.
   * Its subtree moves with it.
   */
  async movePage(id: string, into: string | null | undefined, at?: number | { readonly order: string }): Promise<PageEntry> {
    const page = await this.requirePage(id);
    const target = into === undefined ? page.parent : into;
    if (target === page.parent && at === undefined) return page;
    const parent = await this.parentFor(page.type, target);
    for (let up: PageEntry | null = parent; up; up = up.parent === null ? null : await this.requirePage(up.parent)) {
      if (up.id === id) throw badRequest(`into: page ${id} cannot be moved under itself or one of its own subpages`);
    }
    if (target !== page.parent) await this.checkSlug(parent, page.slug, id);
    const order = typeof at === 'object' ? await this.freeOrder(target, at.order, id) : await this.orderAt(target, at, page);
    await this.children.delete(childKey(page.parent, page.order));
    await this.children.set(childKey(target, order), id);
    await this.pages.set(id, { ...page, parent: target, order });
    await this.repath(id, pathUnder(parent?.path ?? null, page.slug), {});
    return (await this.page(id))!;
  }

  /** Deletes a page with all its subpages; resolves to their ids, the page's first. */
  async deletePage(id: string): Promise<string[]> {
    const page = await this.requirePage(id);
    const removed: string[] = [];
    const pending = [page];
    while (pending.length > 0) {
      const current = pending.pop()!;
      removed.push(current.id);
      pending.push(...(await this.childrenOf(current.id)).reverse());
      await this.pages.delete(current.id);
      await this.paths.delete(current.path);
      await this.children.delete(childKey(current.parent, current.order));
    }
    return removed;
  }

  /** The ids of every file, in key order. */
  async fileIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const [id] of this.files.entries()) ids.push(id);
    return ids;
  }

  /** A file by id. */
  async file(id: string): Promise<FileEntry | undefined> {
    return (await this.files.get(id)) as FileEntry | undefined;
  }

  /** Adds or replaces a file. */
  async putFile(file: FileEntry): Promise<void> {
    await this.files.set(file.id, file);
  }

  /** Removes a file; resolves to whether it was there. */
  async deleteFile(id: string): Promise<boolean> {
    return this.files.delete(id);
  }

  /**
   * Stores what changed and a new revision of the same space: the nodes the draft made, the new page
   * bodies, and the revision record. Resolves to the revision. The draft must not be used afterwards.
   */
  async commit(meta: CommitMeta): Promise<RevisionRecord> {
    const { tx } = this.ctx;
    // A draft of a thousand new pages stores some 1,100 records, each copied and frozen by the store: ~8 ms.
    const pace = pacer(COMMIT_SLICE_MS);
    for (const document of this.documents) {
      await pace();
      await tx.insert(TABLES.contentDocuments, document);
    }
    const revision: RevisionRecord = {
      id: this.ctx.ids.id(),
      spaceId: this.base.spaceId,
      parents: [...meta.parents],
      type: meta.type,
      ...(meta.changeRequestId !== undefined && { changeRequestId: meta.changeRequestId }),
      ...(meta.git !== undefined && { git: meta.git }),
      content: {
        pages: await this.pages.save(tx, pace),
        children: await this.children.save(tx, pace),
        paths: await this.paths.save(tx, pace),
        files: await this.files.save(tx, pace),
      },
      createdAt: this.ctx.now,
    };
    await tx.insert(TABLES.revisions, revision);
    return revision;
  }

  /**
   * A new body record for some Markdown, with its Git blob id when the caller has it. An empty body has none,
   * unless it comes with a blob id (Git Sync: the page's file in a commit holds its title at least), which
   * the record then carries.
   */
  private async body(markdown: string | undefined, gitOid?: string): Promise<string | undefined> {
    if (markdown === undefined || (markdown === '' && gitOid === undefined)) return undefined;
    const document: ContentDocumentRecord = {
      id: this.ctx.ids.id(),
      spaceId: this.base.spaceId,
      markdown,
      gitOid: gitOid ?? (await gitTextOid(markdown)),
      createdAt: this.ctx.now,
    };
    this.documents.push(document);
    return document.id;
  }

  /** The page a page of `type` may be put under (null: the top level), or a 400 saying why not. */
  private async parentFor(type: PageType, into: string | null): Promise<PageEntry | null> {
    if (into === null) return null;
    if (type === 'group') throw badRequest('into: groups exist only at the top level');
    const parent = await this.page(into);
    if (!parent) throw badRequest(`into: no page ${into} in this content`);
    if (!PARENT_TYPES.has(parent.type)) throw badRequest(`into: page ${into} is a ${parent.type} page, which cannot have subpages`);
    return parent;
  }

  /** Checks that a slug is valid and free among the children of `parent` (page `id` itself aside). */
  private async checkSlug(parent: PageEntry | null, slug: string, id: string): Promise<string> {
    const problem = slugProblem(slug);
    if (problem) throw badRequest(`slug: ${problem}`);
    const holder = (await this.paths.get(pathUnder(parent?.path ?? null, slug))) as string | undefined;
    if (holder !== undefined && holder !== id) {
      throw badRequest(`slug: "${slug}" is taken by page ${holder} among the pages of ${parent ? `page ${parent.id}` : 'the top level'}`);
    }
    return slug;
  }

  /**
   * The first of `base`, `base-2`, `base-3`, ... that no child of `parent` has. `base` alone first (it is
   * free more often than not), then the suffixes a batch at a time, looked up together: a store that reads
   * from another process (PostgreSQL) reads a batch's map nodes in a round trip a level, where one candidate
   * at a time cost a round trip each (300 pages titled alike in a change request: 12 more per insert).
   */
  private async freeSlug(parent: PageEntry | null, base: string): Promise<string> {
    for (let first = 1, size = 1; first <= MAX_SLUG_CANDIDATES; first += size, size = SLUG_BATCH) {
      const slugs = Array.from({ length: Math.min(size, MAX_SLUG_CANDIDATES + 1 - first) }, (_, at) => withSuffix(base, first + at));
      const taken = await Promise.all(slugs.map((slug) => this.paths.has(pathUnder(parent?.path ?? null, slug))));
      const free = taken.indexOf(false);
      if (free >= 0) return slugs[free];
    }
    throw badRequest(`slug: no free slug like "${base.slice(0, MAX_SLUG_LENGTH)}"`);
  }

  /** An ordering key a caller gives for a page under `parent`: refused when another page holds it there. */
  private async freeOrder(parent: string | null, order: string, self: string): Promise<string> {
    const holder = await this.children.get(childKey(parent, order));
    if (holder !== undefined && holder !== self) throw badRequest(`order: ${order} is taken among the children of ${parent ?? 'the top level'}`);
    return order;
  }

  /**
   * The ordering key for position `at` among the children of `parent` (undefined: the end, or, for a page
   * staying under the same parent, its place). `moving` is a page being moved, which is not counted as a
   * sibling of itself.
   */
  private async orderAt(parent: string | null, at: number | undefined, moving: PageEntry | undefined): Promise<string> {
    const [from, to] = childRange(parent);
    const start = await this.children.rank(from);
    const end = await this.children.rank(to);
    const own = moving && moving.parent === parent ? (await this.children.rank(childKey(parent, moving.order))) - start : -1;
    const count = end - start - (own >= 0 ? 1 : 0);
    if (at === undefined) {
      if (own >= 0) return moving!.order;
      at = count;
    }
    if (!Number.isInteger(at) || at < 0) throw badRequest('at: must be a whole number, 0 or more');
    if (at > count) throw badRequest(`at: must be at most ${count}, the number of ${own >= 0 ? 'other ' : ''}pages there`);
    // Positions among the siblings without the moving page map to positions in the map around it.
    const position = (i: number) => start + (own >= 0 && i >= own ? i + 1 : i);
    const keyAt = async (i: number) => {
      const entry = await this.children.at(position(i));
      return (entry![0] as string).slice(from.length);
    };
    const before = at > 0 ? await keyAt(at - 1) : null;
    const after = at < count ? await keyAt(at) : null;
    return keyBetween(before, after);
  }

  /**
   * Gives a page a new path (and the fields in `changes`), and every page under it the path that follows
   * from it: the paths map and each entry are rewritten, subtree only.
   */
  private async repath(id: string, path: string, changes: Partial<PageEntry>): Promise<void> {
    const page = await this.requirePage(id);
    if (page.path === path && Object.keys(changes).length === 0) return;
    const moved: PageEntry[] = [];
    const pending: [PageEntry, string][] = [[page, path]];
    // Old paths go first: a subtree can take over paths its own pages held (a slug swap along the way).
    while (pending.length > 0) {
      const [current, newPath] = pending.pop()!;
      await this.paths.delete(current.path);
      moved.push({ ...current, ...(current.id === id ? changes : {}), path: newPath });
      for (const child of await this.childrenOf(current.id)) pending.push([child, pathUnder(newPath, child.slug)]);
    }
    for (const entry of moved) {
      await this.pages.set(entry.id, entry);
      await this.paths.set(entry.path, entry.id);
    }
  }
}

/** Opens a copy-on-write working copy over a revision (see RevisionDraft). */
export function openDraft(ctx: WriteContext, revisionId: string): Promise<RevisionDraft> {
  return RevisionDraft.open(ctx, revisionId);
}

/**
 * Commits a draft opened on a change request's revision as the request's next revision, with the caller
 * among its contributors; stores and returns the updated request.
 */
export async function commitToChangeRequest(ctx: WriteContext, draft: RevisionDraft, changeRequest: ChangeRequestRecord): Promise<ChangeRequestRecord> {
  const revision = await draft.commit({ parents: [changeRequest.revision], type: 'edits', changeRequestId: changeRequest.id });
  const contributors = changeRequest.contributors.includes(ctx.actor.userId) ? changeRequest.contributors : [...changeRequest.contributors, ctx.actor.userId];
  const updated: ChangeRequestRecord = { ...changeRequest, revision: revision.id, contributors, updatedAt: ctx.now };
  await ctx.tx.put(TABLES.changeRequests, updated);
  return updated;
}
