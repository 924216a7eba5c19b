import type { Root, RootContent } from 'mdast';
import { headingAnchor, newSlugger, plainText } from '../markdown.js';
import { BlockPrinter, BODY_SIZE, imageShelf, type Box, type Images } from './blocks.js';
import { PDFDocument, printable } from './fonts.js';
import { definitionsOf } from './inline.js';
import { destinationName, linksOf } from './links.js';
import { pause } from '../../pause.js';
import type { PrintedPage, PrintSource } from './source.js';

/**
 * Renders what an export prints (source.ts) into PDF bytes with pdfkit: A4, the standard fonts, one
 * outline entry (bookmark) per page. Each document page starts on a new PDF page; a group's title opens
 * the page of its first subpage; a link page prints its title and where it points, below what precedes it.
 * The bytes depend only on the source: the creation date is the revision's, so the same content gives the
 * same PDF (and the same blob).
 */

/** Page margins, in points (2 cm). */
const MARGIN = 56.7;
const TITLE_SIZE = 20;
const GROUP_SIZE = 24;
const MUTED = '#555555';
/** How many pages are rendered between two yields to the event loop, so that a long export does not hold it. */
const PAGES_PER_SLICE = 8;

/** Every heading of a body, in document order (the order BlockPrinter prints them in). */
function headingsOf(node: Root | RootContent, out: RootContent[] = []): RootContent[] {
  if (node.type === 'heading') out.push(node);
  else if ('children' in node) for (const child of node.children as RootContent[]) headingsOf(child, out);
  return out;
}

/** The named destinations an export will have: each page printed, and each heading of its body. */
function destinationsOf(pages: readonly PrintedPage[]): Set<string> {
  const names = new Set<string>();
  for (const page of pages) {
    names.add(destinationName(page.id));
    const slugger = newSlugger();
    for (const heading of headingsOf(page.body)) names.add(destinationName(page.id, headingAnchor(plainText(heading), slugger)));
  }
  return names;
}

/** Collects a document's output into one array of bytes. */
function collect(doc: PDFKit.PDFDocument): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    doc.on('data', (chunk: Uint8Array) => chunks.push(chunk));
    doc.on('error', reject);
    doc.on('end', () => void new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer().then((buffer) => resolve(new Uint8Array(buffer)), reject));
  });
}

/** Renders an export into PDF bytes; `images` holds the checked bytes of the image files it shows, by file id. */
export async function renderPdf(source: PrintSource, images: Images): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: printable(source.title), Creator: 'docs-platform', Producer: 'docs-platform (PDFKit)', CreationDate: new Date(source.createdAt) },
  });
  const output = collect(doc);
  const shelf = imageShelf(doc, images);
  // Links need every destination before the first page is printed: a link may point forward.
  const links = linksOf(source, destinationsOf(source.pages));
  const box = (): Box => ({ x: MARGIN, width: doc.page.width - 2 * MARGIN, color: 'black', listDepth: 0 });
  const blank = () => doc.y <= doc.page.margins.top + 0.5;
  // Outline entries by depth: a page's entry goes under the entry of the closest page above it.
  const outline: PDFKit.PDFOutline[] = [];
  let started = false;
  let shared = false;
  const title = (text: string, size: number) => {
    doc.font('Helvetica-Bold').fontSize(size).fillColor('black').text(printable(text), MARGIN, doc.y, { width: box().width });
    doc.y += size * 0.5;
  };
  for (const [index, page] of source.pages.entries()) {
    if (index > 0 && index % PAGES_PER_SLICE === 0) await pause();
    // A document starts a PDF page unless it follows its group's title; a group starts one unless the page is blank.
    const fresh = page.type === 'document' ? !started || shared : page.type === 'group' ? !started || !blank() : !started;
    if (fresh) doc.addPage();
    else if (!blank()) doc.y += TITLE_SIZE;
    // A page that flows below what precedes it keeps its title with a few lines of what follows.
    if (!fresh && doc.y + TITLE_SIZE * 4 > doc.page.maxY()) doc.addPage();
    started = true;
    doc.addNamedDestination(links.destination(page.id), 'XYZ', null, doc.page.height - doc.y, null);
    const parent = page.depth > 0 ? outline[Math.min(page.depth, outline.length) - 1] : undefined;
    outline[page.depth] = (parent ?? doc.outline).addItem(printable(page.title));
    outline.length = page.depth + 1;
    if (page.type === 'group') {
      title(page.title, GROUP_SIZE);
      shared = false;
      continue;
    }
    title(page.title, TITLE_SIZE);
    if (page.description) {
      doc.font('Helvetica').fontSize(BODY_SIZE + 1).fillColor(MUTED).text(printable(page.description), MARGIN, doc.y, { width: box().width });
      doc.y += BODY_SIZE;
    }
    const printer = new BlockPrinter(doc, page.id, definitionsOf(page.body), links, shelf);
    if (page.link) {
      const url = 'url' in page.link ? page.link.url : `/pages/${page.link.page}`;
      const label = 'url' in page.link ? page.link.url : page.link.title;
      printer.inline([{ type: 'text', value: 'Link to ' }, { type: 'link', url, children: [{ type: 'text', value: label }] }], box(), BODY_SIZE);
      doc.y += BODY_SIZE;
    }
    printer.blocks(page.body.children, box());
    shared = true;
  }
  if (!started) {
    doc.addPage();
    title(source.title, TITLE_SIZE);
    doc.font('Helvetica').fontSize(BODY_SIZE).fillColor(MUTED).text('There are no pages to print.', MARGIN, doc.y);
  }
  doc.end();
  return output;
}
