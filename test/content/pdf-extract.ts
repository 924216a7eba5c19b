import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * What a PDF viewer finds in a PDF, read with pdf.js (Mozilla's PDF reader): the text of each page as its
 * text layer extracts it, the outline (bookmarks) as nested titles, and the links of each page (internal
 * ones by the page they go to).
 */

/** An outline entry and the entries under it. */
export interface OutlineEntry {
  readonly title: string;
  readonly items: readonly OutlineEntry[];
}

/** A link annotation: where it goes, a page number (1-based) inside the PDF or a URL. */
export type PdfLink = { readonly page: number } | { readonly url: string };

/** What pdf.js reads from a PDF. */
export interface ExtractedPdf {
  /** Each page's text, its items joined by spaces (a new line where pdf.js sees one). */
  readonly pages: readonly string[];
  readonly outline: readonly OutlineEntry[];
  /** The links of each page. */
  readonly links: readonly (readonly PdfLink[])[];
}

type Dest = string | unknown[] | null;

/** Reads a PDF with pdf.js: every page, or only the pages numbered in `only` (1-based; the others read as ''). */
export async function extractPdf(bytes: Uint8Array, only?: readonly number[]): Promise<ExtractedPdf> {
  const doc = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pageOf = async (dest: Dest): Promise<number> => {
      const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
      if (!explicit) return 0;
      return (await doc.getPageIndex(explicit[0] as never)) + 1;
    };
    const pages: string[] = [];
    const links: PdfLink[][] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      if (only && !only.includes(number)) {
        pages.push('');
        links.push([]);
        continue;
      }
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''));
      const annotations = await page.getAnnotations();
      const found: PdfLink[] = [];
      for (const annotation of annotations) {
        if (annotation.subtype !== 'Link') continue;
        if (annotation.url) found.push({ url: annotation.url as string });
        else if (annotation.dest) found.push({ page: await pageOf(annotation.dest as Dest) });
      }
      links.push(found);
    }
    const convert = (items: readonly { title: string; items: unknown[] }[] | null): OutlineEntry[] =>
      (items ?? []).map((item) => ({ title: item.title, items: convert(item.items as { title: string; items: unknown[] }[]) }));
    return { pages, outline: convert((await doc.getOutline()) as never), links };
  } finally {
    await doc.destroy();
  }
}
