import type { Root, RootContent } from 'mdast';
import { headingAnchor, newSlugger, plainText } from '../markdown.js';
import { BlockPrinter, BODY_SIZE, imageShelf, type Box, type Images } from './blocks.js';
import { FontChain, type FontFiles } from './font-chain.js';
import { PDFDocument, type FontStyle } from './fonts.js';
import { definitionsOf } from './inline.js';
import { destinationName, linksOf } from './links.js';
import { pause } from '../../pause.js';
import { isRightToLeft } from '../text-language.js';
import type { PrintedPage, PrintSource } from './print-source.js';

/**
 * Renders what an export prints (source.ts) into PDF bytes with pdfkit: A4, the standard fonts and the
 * embedded ones the text needs (font-chain.ts), one outline entry (bookmark) per page, nested like the
 * page tree, a page number at the foot of every PDF page. Each document page starts on a new PDF page; a
 * group's title opens the page of its first subpage; a link page prints its title and where it points,
 * below what precedes it. A space written right to left prints mirrored: text aligned right, lists,
 * quotes and table columns from the right (code stays left to right). The bytes depend only on the source: the creation date is the revision's, so the
 * same content gives the same PDF (and the same blob).
 */

/** Page margins, in points (2 cm). */
const MARGIN = 56.7;
const TITLE_SIZE = 20;
const GROUP_SIZE = 24;
const MUTED = '#555555';
const PAGE_NUMBER_SIZE = 8;
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

/** Text for the outline and the document's information: PDF text strings hold any Unicode, not control characters. */
const plain = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

/** The parts of pdfkit's state that writing a page number in the middle of a paragraph must leave as they were. */
interface TextState {
  _font: unknown;
  _fontSize: number;
  _wrapper: unknown;
  _textOptions: unknown;
  x: number;
  y: number;
}

/**
 * Numbers each PDF page at its foot as it is added (nothing is kept to number them at the end). A page is
 * added in the middle of a paragraph that runs over, so the number is written in a saved graphics state and
 * pdfkit's text state (font, size, the paragraph's line wrapper) is put back afterwards.
 */
function numberPages(doc: PDFKit.PDFDocument): void {
  let number = 0;
  const state = doc as unknown as TextState;
  doc.on('pageAdded', () => {
    number++;
    const saved = { _font: state._font, _fontSize: state._fontSize, _wrapper: state._wrapper, _textOptions: state._textOptions, x: state.x, y: state.y };
    state._wrapper = null;
    state._textOptions = null;
    const label = String(number);
    doc.save().font('Helvetica').fontSize(PAGE_NUMBER_SIZE).fillColor(MUTED);
    const x = (doc.page.width - doc.widthOfString(label)) / 2;
    doc.text(label, x, doc.page.height - doc.page.margins.bottom / 2 - PAGE_NUMBER_SIZE / 2, { lineBreak: false });
    doc.restore();
    Object.assign(state, saved);
  });
}

/**
 * Renders an export into PDF bytes; `images` holds the checked bytes of the image files it shows, by file
 * id, `fonts` the embedded fonts its text needs (font-files.ts).
 */
export async function renderPdf(source: PrintSource, images: Images, fonts: FontFiles = new Map()): Promise<Uint8Array> {
  const rtl = source.language !== undefined && isRightToLeft(source.language);
  const doc = new PDFDocument({
    ...(source.language !== undefined && { lang: source.language }),
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: plain(source.title), Creator: 'docs-platform', Producer: 'docs-platform (PDFKit)', CreationDate: new Date(source.createdAt) },
  });
  const output = collect(doc);
  const shelf = imageShelf(doc, images);
  const chain = new FontChain(doc, fonts);
  numberPages(doc);
  /** Writes a line of text in the fonts its characters need, wrapped in the box's width. */
  const write = (text: string, style: FontStyle, size: number, color: string) => {
    const runs = chain.runs(text, style);
    doc.fontSize(size).fillColor(color);
    runs.forEach((run, i) => {
      const options = { width: box().width, continued: i < runs.length - 1, align: rtl ? 'right' : 'left' } as const;
      doc.font(run.font);
      if (i === 0) doc.text(run.text, MARGIN, doc.y, options);
      else doc.text(run.text, options);
    });
    doc.fillColor('black');
  };
  // Links need every destination before the first page is printed: a link may point forward.
  const links = linksOf(source, destinationsOf(source.pages));
  const box = (): Box => ({ x: MARGIN, width: doc.page.width - 2 * MARGIN, color: 'black', listDepth: 0, rtl });
  const blank = () => doc.y <= doc.page.margins.top + 0.5;
  // Outline entries by depth: a page's entry goes under the entry of the closest page above it.
  const outline: PDFKit.PDFOutline[] = [];
  let started = false;
  let shared = false;
  const title = (text: string, size: number) => {
    write(text, { bold: true }, size, 'black');
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
    outline[page.depth] = (parent ?? doc.outline).addItem(plain(page.title));
    outline.length = page.depth + 1;
    if (page.type === 'group') {
      title(page.title, GROUP_SIZE);
      shared = false;
      continue;
    }
    title(page.title, TITLE_SIZE);
    if (page.description) {
      write(page.description, {}, BODY_SIZE + 1, MUTED);
      doc.y += BODY_SIZE;
    }
    const printer = new BlockPrinter(doc, page.id, definitionsOf(page.body), links, shelf, chain);
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
