import type { Context, PrepareContext } from '../../context.js';
import { notFound, unprocessable } from '../../errors.js';
import { pause } from '../../pause.js';
import type { RevisionRecord } from '../../records.js';
import { computeContent } from '../computed.js';
import type { ComputedSource, FileEntry, LinkTarget, PageEntry } from '../model.js';
import { pageAppUrl } from '../present.js';
import { childIds, readFile, readMarkdown, readPage } from '../revision.js';
import type { ContentTarget } from '../target.js';
import { pdfReferencesJob, type PrintReferences } from './render-job.js';
import type { FontFamily } from '../../pdf-fonts.js';
import type { PrintedPage, PrintSource, RawPage } from './print-source.js';
import { addFamilies } from './scripts.js';

/**
 * What a PDF export prints, read from a revision in short read transactions: the pages in tree order with
 * their Markdown, and what those bodies point at (image files, pages outside the export), found by a job
 * that parses them. Rendering (render-job.ts) then needs no transaction.
 */

/** The most pages one PDF prints: a larger export is a 422 that says to export a part of it (`page`). */
export const MAX_PDF_PAGES = 5000;

/** Which pages an export prints: all of them, one page and its subpages, or one page alone. */
export type PrintScope = { readonly kind: 'all' } | { readonly kind: 'subtree' | 'page'; readonly page: string };

/** A computed page printed, with the version of its source it was generated from. */
export interface ComputedSeed {
  readonly organizationId: string;
  readonly source: ComputedSource;
  readonly seed: string;
}

/** Everything a PDF export prints, as read from the store: its pages unparsed. */
export interface PrintRequest extends Omit<PrintSource, 'pages'> {
  readonly pages: readonly RawPage[];
  /** The files that bodies show as images, by id. */
  readonly imageFiles: ReadonlyMap<string, FileEntry>;
  /** The computed pages printed: their content changes with their source, not with the revision. */
  readonly computed: readonly ComputedSeed[];
  /** The font families the text needs beyond the standard fonts (scripts.ts). */
  readonly families: ReadonlySet<FontFamily>;
}

/** The title an export prints and names its file after: the change request's subject, else the space's title. */
export const exportTitle = (target: ContentTarget): string =>
  target.changeRequest?.subject.trim() || target.access.space.title.trim() || `Change request ${target.changeRequest?.number ?? ''}`.trim();

/** How many pages are read between two yields to the event loop. */
const PAGES_PER_SLICE = 32;

/** The pages of a scope in tree order, each with its depth below the first printed. */
async function pagesInScope(ctx: Context, revision: RevisionRecord, scope: PrintScope): Promise<{ page: PageEntry; depth: number }[]> {
  const out: { page: PageEntry; depth: number }[] = [];
  // Page by page, pausing now and then (a level may hold thousands): the revision never changes, so
  // yielding in the middle of reading it cannot mix two states.
  const below = async (parent: string | null, depth: number): Promise<void> => {
    for (const id of await childIds(ctx.tx, revision.content, parent, PAGES_PER_SLICE)) await walk((await readPage(ctx.tx, revision, id))!, depth);
  };
  const walk = async (page: PageEntry, depth: number) => {
    if (out.push({ page, depth }) % PAGES_PER_SLICE === 0) await pause();
    await below(page.id, depth + 1);
  };
  if (scope.kind === 'all') {
    await below(null, 0);
    return out;
  }
  const page = await readPage(ctx.tx, revision, scope.page);
  if (!page) throw notFound(`No page ${scope.page} in this change request`);
  if (scope.kind === 'page') return [{ page, depth: 0 }];
  await walk(page, 0);
  return out;
}

/** Where a link page points, with the title of a page it points at. */
async function linkOf(ctx: Context, revision: RevisionRecord, target: LinkTarget): Promise<NonNullable<PrintedPage['link']>> {
  if (target.kind === 'url') return { url: target.url };
  return { page: target.page, title: (await readPage(ctx.tx, revision, target.page))?.title ?? 'a page' };
}


/** The pages of a scope with their Markdown (computed pages expanded), and the computed content printed. */
async function readPages(ctx: Context, target: ContentTarget, scope: PrintScope): Promise<{ pages: RawPage[]; computed: ComputedSeed[] }> {
  const { revision } = target;
  const organizationId = target.access.space.organizationId;
  const pages: RawPage[] = [];
  const computed: ComputedSeed[] = [];
  const inScope = await pagesInScope(ctx, revision, scope);
  if (inScope.length > MAX_PDF_PAGES) {
    throw unprocessable(`This export would print ${inScope.length} pages, more than ${MAX_PDF_PAGES}, the most one PDF holds: export a part of it (page)`);
  }
  for (const [index, { page, depth }] of inScope.entries()) {
    if (index > 0 && index % PAGES_PER_SLICE === 0) await pause();
    const common = { id: page.id, title: page.title, depth, ...(page.description && { description: page.description }) };
    if (page.type === 'group') pages.push({ ...common, type: 'group', markdown: '' });
    else if (page.type === 'link') pages.push({ ...common, type: 'link', markdown: '', link: await linkOf(ctx, revision, page.target!) });
    else if (page.type === 'computed') {
      const content = await computeContent(ctx, organizationId, page.computed!);
      computed.push({ organizationId, source: page.computed!, seed: content.seed });
      pages.push({ ...common, type: 'document', markdown: content.markdown });
    } else pages.push({ ...common, type: 'document', markdown: await readMarkdown(ctx.tx, page) });
  }
  return { pages, computed };
}

/** The pages and image files that printed pages point at (`references`: what their bodies point at), in a revision. */
async function readReferences(ctx: Context, target: ContentTarget, pages: readonly RawPage[], references: PrintReferences) {
  const { revision } = target;
  const printed = new Set(pages.map((page) => page.id));
  const pageUrls = new Map<string, string>();
  const imageFiles = new Map<string, FileEntry>();
  const linked = pages.flatMap((page) => (page.link && 'page' in page.link ? [page.link.page] : []));
  for (const pageId of new Set([...linked, ...references.pages])) {
    if (printed.has(pageId)) continue;
    const page = await readPage(ctx.tx, revision, pageId);
    if (page) pageUrls.set(pageId, pageAppUrl(ctx, target, page));
  }
  for (const fileId of references.images) {
    const file = await readFile(ctx.tx, revision, fileId);
    if (file) imageFiles.set(file.id, file);
  }
  return { pageUrls, imageFiles };
}

/**
 * Reads what an export prints, under a title: the pages and their Markdown in one read transaction, what
 * their bodies point at found by a job (parsing is the slow part: off the main thread where the platform has
 * worker threads), then what that is in another read. `load` gives the content to print within a read
 * (checking access each time).
 */
export async function readPrintSource(ctx: PrepareContext, load: (read: Context) => Promise<ContentTarget>, scope: PrintScope, title: string): Promise<PrintRequest> {
  const { raw, createdAt, language } = await ctx.read(async (read) => {
    const target = await load(read);
    return { raw: await readPages(read, target, scope), createdAt: target.revision.createdAt, language: target.access.space.language };
  });
  const markdown = raw.pages.map((page) => page.markdown);
  const references = await ctx.workers.run(pdfReferencesJob, markdown, ctx.closing);
  const found = await ctx.read(async (read) => readReferences(read, await load(read), raw.pages, references));
  // Bodies were scanned in the job; titles, descriptions and link titles are short and scanned here.
  const families = new Set(references.families);
  addFamilies(title, families);
  for (const page of raw.pages) {
    addFamilies(page.title, families);
    addFamilies(page.description ?? '', families);
    if (page.link && 'title' in page.link) addFamilies(page.link.title, families);
  }
  return { title, createdAt, pages: raw.pages, ...found, computed: raw.computed, families, ...(language !== undefined && { language }) };
}
