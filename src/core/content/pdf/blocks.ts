import type { BlockContent, Code, DefinitionContent, Heading, List, ListItem, PhrasingContent, RootContent, Table } from 'mdast';
import { headingAnchor, newSlugger, plainText } from '../markdown.js';
import type { FontChain } from './font-chain.js';
import { lowerBlock } from './gitbook-blocks.js';
import { runsOf, type Definitions, type Run, type TextRun } from './inline.js';
import type { Links } from './links.js';

/**
 * Prints the blocks of one page body (mdast) onto a pdfkit document: headings, paragraphs with bold,
 * italic, code, strikethrough and links, nested lists, block quotes, code blocks in Courier, tables,
 * images, rules, GitBook's blocks (gitbook-blocks.ts); raw HTML and anything else prints as its text. The
 * document wraps text and adds pages by itself; what is drawn rather than written (code backgrounds, rules, images) checks the room left.
 */

/** The part of the page a block is printed in: its left edge and width, its text colour, its list depth. */
export interface Box {
  readonly x: number;
  readonly width: number;
  readonly color: string;
  /** How deep in lists it is, for the bullet shape. */
  readonly listDepth: number;
  /** Whether it reads right to left: text aligned right, indents, markers and quote bars on the right. */
  readonly rtl?: boolean;
}

/** The images ready to embed by file id: their bytes, already checked (images.ts). */
export type Images = ReadonlyMap<string, Uint8Array>;

/** An image pdfkit has parsed: its size in pixels and its EXIF orientation (5..8: turned a quarter). */
export interface OpenedImage {
  readonly width: number;
  readonly height: number;
  readonly orientation?: number;
}

/**
 * The images of one document, each parsed once when first shown: pdfkit embeds an opened image once and
 * refers to it from every page that shows it, where opening the bytes again would embed them again.
 */
export function imageShelf(doc: PDFKit.PDFDocument, images: Images): (fileId: string) => OpenedImage | undefined {
  const opened = new Map<string, OpenedImage>();
  return (fileId) => {
    const bytes = images.get(fileId);
    if (!bytes) return undefined;
    if (!opened.has(fileId)) opened.set(fileId, (doc as unknown as { openImage(src: Uint8Array): OpenedImage }).openImage(bytes));
    return opened.get(fileId);
  };
}

/** The text size of body text, in points. */
export const BODY_SIZE = 10.5;
/** The space after a block, in points. */
const BLOCK_GAP = 7;
/** Heading sizes by depth (1..6). */
const HEADING_SIZES = [0, 17, 14.5, 12.5, 11.5, 11, 10.5];
const CODE_SIZE = 9;
/** The space around the text of a code block, inside its background. */
const CODE_PADDING = 5;
const LINE_GAP = 2;
const MUTED = '#555555';
const LINK = '#1a55c4';
const RULE = '#c8c8c8';
const CODE_BACKGROUND = '#f2f2f2';
/** The indent of list items and block quotes. */
const INDENT = 16;
const BULLETS = ['\u2022', '\u2013', '\u00b7'];
/** The narrowest a nested list or quote gets: deeper levels stop indenting (`> > > …` 60 deep stays readable). */
const MIN_WIDTH = 120;
/** Helvetica's ascent, per point of size (its AFM's Ascender, 718 / 1000). */
const HELVETICA_ASCENT = 0.718;

/** A box indented by `by` points from its start (the right for a right-to-left box), as far as MIN_WIDTH allows. */
function inset(box: Box, by: number): Box {
  const step = Math.min(by, Math.max(0, box.width - MIN_WIDTH));
  return { ...box, x: box.rtl ? box.x : box.x + step, width: box.width - step };
}

/** Where something `width` wide starts at the start of a box: its left, or its right for a right-to-left box. */
const startX = (box: Box, width: number) => (box.rtl ? box.x + box.width - width : box.x);

/** Prints the body of one page. */
export class BlockPrinter {
  private readonly slugger = newSlugger();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    /** The id of the page printed: headings become destinations under it. */
    private readonly pageId: string,
    private readonly definitions: Definitions,
    private readonly links: Links,
    /** The image of a file id, parsed once per document (imageShelf). */
    private readonly images: (fileId: string) => OpenedImage | undefined,
    /** The fonts each character is written in. */
    private readonly fonts: FontChain,
  ) {}

  /** Prints blocks one after another. */
  blocks(nodes: readonly RootContent[], box: Box): void {
    for (const node of nodes) this.block(node, box);
  }

  private block(node: RootContent, box: Box): void {
    switch (node.type) {
      case 'paragraph':
        this.inline(node.children, box, BODY_SIZE);
        return this.gap();
      case 'heading':
        return this.heading(node, box);
      case 'list':
        this.list(node, box);
        return this.gap();
      case 'blockquote':
        return this.quote(node.children, box);
      case 'code':
        return this.code(node, box);
      case 'table':
        return this.table(node, box);
      case 'thematicBreak':
        return this.rule(box);
      case 'html':
        this.inline([{ type: 'text', value: node.value.replace(/<[^>]*>/g, '').trim() }], { ...box, color: MUTED }, BODY_SIZE);
        return this.gap();
      case 'footnoteDefinition': {
        // `[1] The note.`: the label opens the note's first paragraph.
        const label: PhrasingContent = { type: 'text', value: `[${node.label ?? node.identifier}] ` };
        const [first, ...rest] = node.children;
        if (first?.type !== 'paragraph') return this.blocks([{ type: 'paragraph', children: [label] }, ...node.children], box);
        return this.blocks([{ ...first, children: [label, ...first.children] }, ...rest], box);
      }
      case 'gitbookBlock':
        return this.blocks(lowerBlock(node), box);
      case 'definition':
      case 'yaml':
        return;
      default: {
        // Anything else (math, MDX, a future node type) prints as its plain text.
        const text = plainText(node).trim();
        if (text !== '') {
          this.inline([{ type: 'text', value: text }], box, BODY_SIZE);
          this.gap();
        }
      }
    }
  }

  /** Moves down by the space between blocks. */
  private gap(points = BLOCK_GAP): void {
    this.doc.y += points;
  }

  /** Starts a new page unless `height` points fit below the current position. */
  private room(height: number): void {
    if (this.doc.y + height > this.doc.page.maxY()) this.doc.addPage();
  }

  private heading(node: Heading, box: Box): void {
    const size = HEADING_SIZES[node.depth] ?? BODY_SIZE;
    this.gap(size * 0.4);
    // Keep a heading with at least two lines of what follows it.
    this.room(size * 1.4 + BODY_SIZE * 3);
    const anchor = headingAnchor(plainText(node), this.slugger);
    this.doc.addNamedDestination(this.links.destination(this.pageId, anchor), 'XYZ', null, this.doc.page.height - this.doc.y, null);
    const runs = runsOf(node.children, this.definitions).map((run) => (run.kind === 'text' && !run.style.code ? { ...run, style: { ...run.style, bold: true } } : run));
    this.runs(runs, box, size);
    this.gap(size * 0.3);
  }

  /** Prints phrasing content: text runs wrapped in the box, images as blocks between them. */
  inline(nodes: readonly PhrasingContent[], box: Box, size: number): void {
    this.runs(runsOf(nodes, this.definitions), box, size);
  }

  private runs(runs: readonly Run[], box: Box, size: number): void {
    let pending: TextRun[] = [];
    for (const run of runs) {
      if (run.kind === 'text') {
        pending.push(run);
        continue;
      }
      this.text(pending, box, size);
      pending = [];
      const fileId = this.links.file(run.url);
      const image = fileId === undefined ? undefined : this.images(fileId);
      if (image) this.image(image, box);
      else pending.push({ kind: 'text', text: `[${run.alt || 'image'}]`, style: { italic: true }, ...(run.url && { url: run.url }) });
    }
    this.text(pending, box, size);
  }

  /** Writes text runs as one wrapped paragraph: each run in its font, links clickable. */
  private text(runs: readonly TextRun[], box: Box, size: number): void {
    // Each run cut further where its characters need another font.
    const printed = runs.flatMap((run) => this.fonts.runs(run.text, run.style).map((part) => ({ ...run, text: part.text, font: part.font }))).filter((run) => run.text !== '');
    // A paragraph that ends in a line break would print an empty last line.
    while (printed.length > 0 && /^\n+$/.test(printed[printed.length - 1].text)) printed.pop();
    if (printed.length === 0) return;
    const { doc } = this;
    doc.fontSize(size);
    printed.forEach((run, i) => {
      const target = run.url === undefined ? undefined : this.links.target(run.url, this.pageId);
      // Every option is given on every run: pdfkit carries options over from the previous continued run.
      const options = {
        width: box.width,
        lineGap: LINE_GAP,
        continued: i < printed.length - 1,
        align: box.rtl ? 'right' : 'left',
        link: target?.url ?? null,
        goTo: target?.goTo ?? null,
        underline: target !== undefined,
        strike: run.strike === true,
        // One baseline for every font of the line: by default each run sits below the top of the line by its
        // own font's ascent, which puts Courier higher than Helvetica.
        baseline: -HELVETICA_ASCENT * size,
      } as PDFKit.Mixins.TextOptions;
      doc.font(run.font).fillColor(target ? LINK : box.color);
      if (i === 0) doc.text(run.text, box.x, doc.y, options);
      else doc.text(run.text, options);
    });
    doc.fillColor('black');
  }

  private list(node: List, box: Box): void {
    const start = node.start ?? 1;
    node.children.forEach((item: ListItem, i) => {
      const marker = item.checked === true ? '[x]' : item.checked === false ? '[ ]' : node.ordered ? `${start + i}.` : BULLETS[box.listDepth % BULLETS.length];
      const { doc } = this;
      this.room(BODY_SIZE * 1.5);
      const top = doc.y;
      doc.font('Helvetica').fontSize(BODY_SIZE).fillColor(box.color).text(marker, startX(box, INDENT + 8), top, { width: INDENT + 8, lineBreak: false, align: box.rtl ? 'right' : 'left' });
      doc.fillColor('black');
      doc.y = top;
      const inner: Box = { ...inset(box, INDENT + (node.ordered ? 6 : 0)), listDepth: box.listDepth + 1 };
      item.children.forEach((child, index) => {
        if (child.type === 'paragraph') {
          this.inline(child.children, inner, BODY_SIZE);
          // Paragraphs of a loose list are apart; of a tight list, together.
          if (item.spread || index < item.children.length - 1) this.gap(BLOCK_GAP / 2);
        } else if (child.type === 'list') this.list(child, inner);
        else this.block(child, inner);
      });
      if (doc.y < top + BODY_SIZE) doc.y = top + BODY_SIZE + LINE_GAP;
    });
  }

  private quote(children: readonly (BlockContent | DefinitionContent)[], box: Box): void {
    const { doc } = this;
    const page = doc.page;
    const top = doc.y;
    this.blocks(children, { ...inset(box, INDENT), color: MUTED });
    // The bar beside the quote, when the quote stayed on one page.
    if (doc.page === page) {
      const x = startX(box, 8) + 4;
      doc.save().moveTo(x, top).lineTo(x, doc.y - BLOCK_GAP).lineWidth(2.5).strokeColor(RULE).stroke().restore();
    }
  }

  private code(node: Code, box: Box): void {
    const { doc } = this;
    const width = box.width - 2 * CODE_PADDING;
    const background = (top: number, height: number) => doc.save().rect(box.x, top, box.width, height).fill(CODE_BACKGROUND).restore();
    // Line by line, each on its own background: a long block breaks across pages like text does.
    const lines = node.value.split('\n');
    lines.forEach((line, i) => {
      const runs = this.fonts.runs(line === '' ? ' ' : line, { code: true });
      if (runs.length === 0) runs.push({ text: ' ', font: 'Courier' });
      doc.font('Courier').fontSize(CODE_SIZE);
      // Measured in Courier: a line with characters of other fonts may wrap a little differently.
      const height = doc.heightOfString(runs.map((run) => run.text).join(''), { width, lineGap: 1 });
      const above = i === 0 ? CODE_PADDING : 0;
      const below = i === lines.length - 1 ? CODE_PADDING : 0;
      this.room(Math.min(above + height + below, doc.page.maxY() - doc.page.margins.top));
      const top = doc.y;
      background(top, above + height + below + 0.5);
      doc.fillColor('black');
      runs.forEach((run, r) => {
        const options = { width, lineGap: 1, continued: r < runs.length - 1 };
        doc.font(run.font).fontSize(CODE_SIZE);
        if (r === 0) doc.text(run.text, box.x + CODE_PADDING, top + above, options);
        else doc.text(run.text, options);
      });
      doc.y += below;
    });
    this.gap();
  }

  private table(node: Table, box: Box): void {
    // One font a cell (pdfkit's tables write a cell in one font): the one that shows most of its text.
    const rows = node.children.map((row, r) => row.children.map((cell) => this.fonts.single(plainText(cell), { bold: r === 0 })));
    // Right to left, the first column is on the right: every row and the alignments reversed.
    const ordered = <T>(cells: T[]) => (box.rtl ? cells.reverse() : cells);
    const columns = Math.max(1, ...rows.map((row) => row.length));
    // Every row gets every column: GFM lets a row have fewer cells than the header.
    const data = rows.map((row) => ordered(Array.from({ length: columns }, (_, i) => ({ text: row[i]?.text ?? '', font: { src: row[i]?.font ?? 'Helvetica' } }))));
    const align = ordered(Array.from({ length: columns }, (_, i) => node.align?.[i] ?? (box.rtl ? 'right' : 'left')));
    this.doc.fillColor('black').font('Helvetica').fontSize(CODE_SIZE + 0.5);
    this.doc.table({
      data,
      position: { x: box.x, y: this.doc.y },
      maxWidth: box.width,
      columnStyles: (i: number) => ({ align: { x: align[i], y: 'top' } }),
      rowStyles: (i: number) => (i === 0 ? { backgroundColor: CODE_BACKGROUND } : {}),
      defaultStyle: { padding: 3, border: 0.5, borderColor: RULE },
    } as never);
    this.doc.x = box.x;
    this.gap();
  }

  private rule(box: Box): void {
    this.room(BLOCK_GAP * 2);
    const y = this.doc.y + BLOCK_GAP / 2;
    this.doc.save().moveTo(box.x, y).lineTo(box.x + box.width, y).lineWidth(0.75).strokeColor(RULE).stroke().restore();
    this.doc.y = y + BLOCK_GAP;
  }

  /** Embeds an image as a block: at most its size at 96 dpi, at most the box's width and the page's height. */
  private image(image: OpenedImage, box: Box): void {
    const { doc } = this;
    // Its EXIF orientation may turn it a quarter.
    const [pixelsWide, pixelsHigh] = (image.orientation ?? 1) > 4 ? [image.height, image.width] : [image.width, image.height];
    const maxHeight = (doc.page.maxY() - doc.page.margins.top) * 0.9;
    const scale = Math.min(0.75, box.width / pixelsWide, maxHeight / pixelsHigh);
    const width = pixelsWide * scale;
    const height = pixelsHigh * scale;
    this.room(height);
    const top = doc.y;
    doc.image(image as never, box.x, top, { width, height });
    doc.x = box.x;
    doc.y = top + height + BLOCK_GAP / 2;
  }
}
