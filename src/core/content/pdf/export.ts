import type { Context, PrepareContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { computedSeed } from '../computed.js';
import { loadRevision, readPage } from '../revision.js';
import { changeRequestContent, type ContentTarget } from '../target.js';
import { loadFontFiles } from './font-files.js';
import { renderPdfJob } from './render-job.js';
import { exportTitle, readPrintSource, type ComputedSeed, type PrintScope } from './source.js';

/**
 * A change request's PDF, rendered once per revision and scope (and title, and app URL base: both are
 * printed) and kept in the blob store; `ctx.derived` remembers its blob key. Everything slow happens
 * outside any transaction: each read is a short read transaction, rendering and storing run between them;
 * parsing and rendering are jobs (render-job.ts), in a worker thread where the platform has them.
 */

/** What a rendered export leaves: the blob key of its PDF and the computed content it printed. */
interface RenderedExport {
  readonly digest: string;
  readonly computed: readonly ComputedSeed[];
}

/** The largest image file whose bytes are read to embed (bigger ones print as their alt text; the job checks the others). */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The change request to export, read for the caller (404 for a space, request or page it cannot see). */
async function exportTarget(ctx: Context, spaceId: string, changeRequestId: string, scope: PrintScope): Promise<ContentTarget> {
  const target = await changeRequestContent(ctx, spaceId, changeRequestId);
  if (scope.kind !== 'all' && !(await readPage(ctx.tx, target.revision, scope.page))) {
    throw notFound(`No page ${scope.page} in change request ${target.changeRequest!.number}`);
  }
  return target;
}

/** Whether the computed pages an export printed would still print the same: their sources have no newer version. */
async function stillCurrent(ctx: Context, computed: readonly ComputedSeed[]): Promise<boolean> {
  for (const { organizationId, source, seed } of computed) {
    if ((await computedSeed(ctx, organizationId, source)) !== seed) return false;
  }
  return true;
}

/** Renders an export of one revision of a change request and stores the PDF. */
async function render(ctx: PrepareContext, spaceId: string, changeRequestId: string, scope: PrintScope, revisionId: string, title: string): Promise<RenderedExport> {
  // The revision the cache entry is for, even if the request moved on since: revisions never change.
  const load = async (read: Context) => ({ ...(await exportTarget(read, spaceId, changeRequestId, scope)), revision: await loadRevision(read.tx, revisionId) });
  const source = await readPrintSource(ctx, load, scope, title);
  const images = new Map<string, Uint8Array>();
  for (const file of source.imageFiles.values()) {
    if (!file.contentType.startsWith('image/') || file.size > MAX_IMAGE_BYTES) continue;
    const bytes = await ctx.blobs.get(file.digest);
    if (bytes) images.set(file.id, bytes);
  }
  const { imageFiles: _files, computed, families, ...printed } = source;
  // Only the fonts the text needs are read and moved to the job (pdfkit embeds a subset of each).
  const fonts = await loadFontFiles(ctx.pdfFonts, families);
  const pdf = await ctx.workers.run(renderPdfJob, { ...printed, images, fonts }, ctx.closing);
  return { digest: await ctx.blobs.put(pdf), computed };
}

/** What a PDF export is: the blob key of the PDF of a change request's current revision, rendered or remembered. */
export async function exportChangeRequestPdf(ctx: PrepareContext, spaceId: string, changeRequestId: string, scope: PrintScope): Promise<string> {
  const { revisionId, title, app, language } = await ctx.read(async (read) => {
    const target = await exportTarget(read, spaceId, changeRequestId, scope);
    return { revisionId: target.revision.id, title: exportTitle(target), app: read.urls.app(''), language: target.access.space.language ?? null };
  });
  // The space's language is no part of the revision: a change to it prints another PDF.
  const kind = `pdf:${JSON.stringify([scope, title, app, language])}`;
  const compute = () => render(ctx, spaceId, changeRequestId, scope, revisionId, title);
  let rendered = await ctx.derived.get(kind, revisionId, compute);
  // Touched so that the blob collection leaves the bytes until the URL's hold is written (they may have
  // been collected since they were remembered: then render again), or rendered again when a computed page changed.
  const stale = async () =>
    !(await ctx.blobs.touch(rendered.digest)) || (rendered.computed.length > 0 && !(await ctx.read((read) => stillCurrent(read, rendered.computed))));
  if (await stale()) {
    ctx.derived.delete(kind, revisionId);
    rendered = await ctx.derived.get(kind, revisionId, compute);
  }
  return rendered.digest;
}
