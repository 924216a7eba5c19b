import * as v from 'valibot';
import { Id, QueryBoolean, Url } from '../../schemas.js';

/** The query of a PDF export: `page` prints one page and its subpages, with `only=true` that page alone. */
export const PdfQuery = {
  only: v.optional(QueryBoolean),
  page: v.optional(Id),
};

/** The answer of a PDF export: a URL to download the PDF, valid for one hour. */
export const PdfUrlSchema = v.object({
  url: v.pipe(Url, v.description('Temporary URL to print the content. The URL will work for 1h.')),
});
