import { badRequest } from '../../errors.js';
import { holdBlob } from '../../blob-collection/holds.js';
import { writeOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { downloadUrl } from '../downloads.js';
import { changeRequestContent } from '../target.js';
import { exportChangeRequestPdf } from './export.js';
import { PdfQuery, PdfUrlSchema } from './schemas.js';
import { exportTitle, type PrintScope } from './source.js';

/** How long a PDF's URL works: one hour, as the public API says. */
export const PDF_URL_LIFETIME_MS = 60 * 60 * 1000;

/** What a query asks to print; `only` without `page` names nothing. */
function scopeOf(input: { only?: boolean; page?: string }): PrintScope {
  if (input.page === undefined) {
    if (input.only === true) throw badRequest('only: needs page, the id of the page to print');
    return { kind: 'all' };
  }
  return { kind: input.only === true ? 'page' : 'subtree', page: input.page };
}

/** A file name of safe characters only, from a title: `Fix the install guide` → `Fix-the-install-guide.pdf`. */
export function pdfFileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 100)
    .replace(/[-.]+$/, '');
  return `${base || 'change-request'}.pdf`;
}

/**
 * Gets a temporary URL (valid for 1 hour) of a PDF of a change request's content: every page, a page and
 * its subpages (`page`), or one page (`page` and `only=true`). The PDF is rendered in `prepare`, outside the
 * transaction, once per revision and scope; the URL is signed here, and the PDF's bytes are held in the
 * blob store until it expires (blob-collection/holds.ts): a write, the one this GET makes.
 */
export const getChangeRequestPDF = writeOperation({
  name: 'getChangeRequestPDF',
  heavy: true,
  summary: "Get a temporary URL to download a change request's content as PDF",
  params: { spaceId: Id, changeRequestId: Id },
  query: PdfQuery,
  response: PdfUrlSchema,
  prepare: (ctx, input) => exportChangeRequestPdf(ctx, input.spaceId, input.changeRequestId, scopeOf(input)),
  async run(ctx, input, digest) {
    // Checked again in this transaction: access may have changed while the PDF was rendered.
    const target = await changeRequestContent(ctx, input.spaceId, input.changeRequestId);
    const expiresAt = new Date(Date.parse(ctx.now) + PDF_URL_LIFETIME_MS).toISOString();
    await holdBlob(ctx.tx, digest, 'pdf', expiresAt);
    return { url: await downloadUrl(ctx, { digest, contentType: 'application/pdf', name: pdfFileName(exportTitle(target)), expiresAt }) };
  },
});
