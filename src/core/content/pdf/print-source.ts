import type { Root } from 'mdast';

// The plain data a PDF render prints: read from the store by source.ts, printed by render.ts in the render job.
// Apart from both, so that the render job's modules never import the store-reading side.

/** One page an export prints. */
export interface PrintedPage {
  readonly id: string;
  /** A computed page prints as the document it expands into. */
  readonly type: 'document' | 'group' | 'link';
  readonly title: string;
  /** The page's description, printed under its title. */
  readonly description?: string;
  /** How deep it is below the first page printed (0: a top-level page of the export). */
  readonly depth: number;
  /** Its body, parsed (empty for groups and links). */
  readonly body: Root;
  /** A link page's target: a URL, or a page of the revision (its title: what the link says). */
  readonly link?: { readonly url: string } | { readonly page: string; readonly title: string };
}

/** What renderPdf prints. */
export interface PrintSource {
  /** The document's title (the change request's subject, else the space's title). */
  readonly title: string;
  /** When the revision was made: the PDF's creation date, so that the same content gives the same bytes. */
  readonly createdAt: string;
  readonly pages: readonly PrintedPage[];
  /** App URLs of the pages that bodies and link pages point at but the export does not print. */
  readonly pageUrls: ReadonlyMap<string, string>;
  /** The language the space is written in (its `language`), the PDF's /Lang; `ar` and `he` print right to left. */
  readonly language?: string;
}

/** A page to print with its Markdown, before parsing (the job that renders parses it). */
export type RawPage = Omit<PrintedPage, 'body'> & { readonly markdown: string };
