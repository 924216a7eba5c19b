import type { WriteContext } from '../../context.js';
import type { StoredFile } from '../author/files.js';
import type { RevisionDraft } from '../draft.js';
import type { PageMeta } from '../markdown.js';

/**
 * What an import will write, worked out before its transaction (fetching, unpacking, parsing, storing
 * bytes): a tree of pages whose bodies already point at the ids given here, and the files they use. The
 * transaction only inserts them (applyPlan), so it holds the store for as short a time as it can.
 */

/** The page fields an imported page may carry besides its title and body (from its frontmatter). */
export type PlannedMeta = Omit<PageMeta, 'title'>;

/** A page an import creates, with its subpages: everything but its slug and place, which the draft picks. */
export interface PlannedPage {
  readonly id: string;
  readonly type: 'document' | 'group' | 'link';
  readonly title: string;
  readonly meta: PlannedMeta;
  /** The body of a document page, its links already rewritten ('' for none). */
  readonly markdown: string;
  /** Where a link page points. */
  readonly url?: string;
  /** The Git blob id of the file its body was read from, when the source named it (a Git tree): its `git.oid`. */
  readonly gitOid?: string;
  readonly pages: readonly PlannedPage[];
}

/** A file an import creates: its bytes are in the blob store already. */
export interface PlannedFile extends StoredFile {
  readonly id: string;
}

/** Everything an import creates, and how many resources of the source it did not use. */
export interface ImportPlan {
  /** The pages to append to the top level, in order. */
  readonly pages: readonly PlannedPage[];
  readonly files: readonly PlannedFile[];
  /** Resources of the source that were read but not imported (e.g. zip entries that are neither pages nor used files). */
  readonly skipped: number;
}

/** The counts of the import result. */
export interface ImportCounts {
  readonly importedResources: number;
  readonly totalResources: number;
}

/** The number of pages in planned trees, subpages included. */
function countPlannedPages(pages: readonly PlannedPage[]): number {
  return pages.reduce((total, page) => total + 1 + countPlannedPages(page.pages), 0);
}

/** Inserts one planned page under `into` (null: the top level), at the end, then its subpages. */
async function insertPlanned(draft: RevisionDraft, page: PlannedPage, into: string | null): Promise<void> {
  await draft.insertPage(
    {
      id: page.id,
      type: page.type,
      title: page.title,
      ...page.meta,
      ...(page.type === 'document' && { markdown: page.markdown }),
      ...(page.type === 'link' && page.url !== undefined && { target: { kind: 'url' as const, url: page.url } }),
    },
    into,
  );
  for (const child of page.pages) await insertPlanned(draft, child, page.id);
}

/**
 * Writes a plan into a draft: its pages appended at the end of the top level (the pages already there stay
 * as they are; slugs are made unique among siblings by the draft), its files added. Resolves to the counts
 * of the import result.
 */
export async function applyPlan(ctx: WriteContext, draft: RevisionDraft, plan: ImportPlan): Promise<ImportCounts> {
  for (const page of plan.pages) await insertPlanned(draft, page, null);
  for (const file of plan.files) await draft.putFile({ ...file, createdAt: ctx.now });
  const importedResources = countPlannedPages(plan.pages) + plan.files.length;
  return { importedResources, totalResources: importedResources + plan.skipped };
}
