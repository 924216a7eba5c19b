import type { WriteContext } from '../context.js';
import { openDraft, type CommitMeta, type NewPage, type RevisionDraft } from '../content/draft.js';
import type { ImportPlan, PlannedPage } from '../content/import/plan.js';
import { LAYOUT_TYPES, pathUnder, type FileEntry, type PageEntry } from '../content/model.js';
import { settleLayout } from '../content/page-layout.js';
import { pacer } from '../pause.js';
import { TABLES, type ContentDocumentRecord, type RevisionRecord } from '../records.js';

/**
 * The repository's side of an import: a revision of the space that holds exactly the repository's pages
 * and files, each page or file that matched one of the last sync (match-repository.ts) under its id. So
 * that the three-way merge sees only what the repository changed, whatever the repository left as it was
 * stays as it was: a page's slug, its ordering key where its siblings keep their order, its body record
 * when the text is the same, its layout and cover (which the format does not carry), its times when
 * nothing of it changed; a file's entry when its bytes are the same.
 */

/** How long the draft is written at a time before other work may run (pause.ts). */
const SLICE_MS = 2;

/** The own fields a repository gives a page, compared to see whether it changed. */
const FORMAT_FIELDS = ['title', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/** The longest run of items whose keys increase, as a set (patience sorting). */
function increasing<T>(items: readonly T[], key: (item: T) => string): Set<T> {
  const tails: number[] = [];
  const previous: number[] = [];
  items.forEach((item, index) => {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (key(items[tails[middle]]) < key(item)) low = middle + 1;
      else high = middle;
    }
    previous[index] = low > 0 ? tails[low - 1] : -1;
    tails[low] = index;
  });
  const run = new Set<T>();
  for (let at = tails.length > 0 ? tails[tails.length - 1] : -1; at >= 0; at = previous[at]) run.add(items[at]);
  return run;
}

/** Writes the repository's pages and files into an emptied draft. */
class RepositorySide {
  constructor(
    private readonly draft: RevisionDraft,
    /** Pauses once a slice of work has run: a thousand pages are no one long stretch of the thread that answers requests. */
    private readonly pace: () => Promise<void> | undefined,
    /** The pages of the last sync's revision, by id. */
    private readonly was: ReadonlyMap<string, PageEntry>,
    /** Their bodies and the blob ids of their files, by document id. */
    private readonly bodies: ReadonlyMap<string, Body>,
  ) {}

  /** The fields of a planned page: the base's where the repository left them. */
  private fields(page: PlannedPage, was: PageEntry | undefined): NewPage {
    const body = was?.document === undefined ? undefined : this.bodies.get(was.document);
    const sameBody = was !== undefined && (was.document === undefined ? page.markdown === '' : body?.markdown === page.markdown);
    // A file whose front matter alone changed is a new blob: the body stays, under the new blob's id.
    const sameOid = page.gitOid === undefined || body?.gitOid === page.gitOid;
    const fields: NewPage = {
      id: page.id,
      type: page.type,
      title: page.title,
      ...page.meta,
      // A new body's `git.oid` is the blob id of its file, as the tree named it.
      ...(page.type === 'document' && (sameBody && sameOid && was?.document !== undefined ? { document: was.document } : { markdown: page.markdown, gitOid: page.gitOid })),
      ...(page.type === 'link' && page.url !== undefined && { target: { kind: 'url' as const, url: page.url } }),
      // A layout in the front matter is the repository's; without one, the page keeps the base's.
      ...(was !== undefined && LAYOUT_TYPES.has(page.type) && { layout: page.meta.layout ?? was.layout, cover: was.cover ?? null }),
    };
    if (was === undefined) return fields;
    const url = was.target?.kind === 'url' ? was.target.url : undefined;
    const sameLayout = JSON.stringify(settleLayout(undefined, fields.layout)) === JSON.stringify(was.layout);
    const same = sameBody && sameLayout && url === page.url && FORMAT_FIELDS.every((field) => (fields[field] || undefined) === (was[field] || undefined));
    return { ...fields, createdAt: was.createdAt, ...(same && { updatedAt: was.updatedAt }) };
  }

  /**
   * Inserts the pages under `parent` in the repository's order, then their subpages. Those that were
   * under the same parent in an order the repository kept (the longest such run) keep their ordering keys
   * and slugs; the others are put at their position, with their old slug where it is free.
   */
  async place(parent: string | null, pages: readonly PlannedPage[]): Promise<void> {
    const staying = pages.filter((page) => this.was.get(page.id)?.parent === parent);
    const kept = increasing(staying, (page) => this.was.get(page.id)!.order);
    for (const page of kept) {
      await this.pace();
      const was = this.was.get(page.id)!;
      await this.draft.insertPage({ ...this.fields(page, was), slug: was.slug, order: was.order }, parent);
    }
    const parentPath = parent === null ? null : (await this.draft.requirePage(parent)).path;
    for (const [at, page] of pages.entries()) {
      if (kept.has(page)) continue;
      await this.pace();
      const was = this.was.get(page.id);
      const free = was !== undefined && (await this.draft.pageAtPath(pathUnder(parentPath, was.slug))) === undefined;
      await this.draft.insertPage({ ...this.fields(page, was), ...(free && { slug: was.slug }) }, parent, at);
    }
    for (const page of pages) await this.place(page.id, page.pages);
  }
}

/** A base page's body, and the blob id of the file it came from or went to. */
type Body = Pick<ContentDocumentRecord, 'markdown' | 'gitOid'>;

/** The bodies of the base's pages that the plan matched, by document id: one read for all. */
async function matchedBodies(ctx: WriteContext, plan: ImportPlan, was: ReadonlyMap<string, PageEntry>): Promise<Map<string, Body>> {
  const documents: string[] = [];
  const visit = (pages: readonly PlannedPage[]) => {
    for (const page of pages) {
      const document = was.get(page.id)?.document;
      if (document !== undefined) documents.push(document);
      visit(page.pages);
    }
  };
  visit(plan.pages);
  const records = (await ctx.tx.getMany(TABLES.contentDocuments, documents)) as (ContentDocumentRecord | undefined)[];
  return new Map(records.filter((record) => record !== undefined).map((record) => [record.id, record]));
}

/**
 * Commits the repository's side: a draft over `from` (any revision of the space) emptied, then filled
 * with the plan, whose ids are the base's where they matched (`was`: the base's pages by id, `files`: its
 * files by id; empty for a first import).
 */
export async function commitRepositorySide(
  ctx: WriteContext,
  from: string,
  plan: ImportPlan,
  base: { readonly pages: ReadonlyMap<string, PageEntry>; readonly files: ReadonlyMap<string, FileEntry> },
  meta: CommitMeta,
): Promise<RevisionRecord> {
  const draft = await openDraft(ctx, from);
  const pace = pacer(SLICE_MS);
  for (const id of await draft.childIds(null)) {
    await pace();
    await draft.deletePage(id);
  }
  for (const id of await draft.fileIds()) await draft.deleteFile(id);
  await new RepositorySide(draft, pace, base.pages, await matchedBodies(ctx, plan, base.pages)).place(null, plan.pages);
  for (const file of plan.files) {
    await pace();
    const was = base.files.get(file.id);
    await draft.putFile(was !== undefined && was.digest === file.digest ? was : { ...file, createdAt: was?.createdAt ?? ctx.now });
  }
  return draft.commit(meta);
}
