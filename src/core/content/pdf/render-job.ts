import type { Root } from 'mdast';
import { buffersOf, defineJob } from '../../job.js';
import { pause } from '../../pause.js';
import { refOfUrl } from '../document.js';
import { parseMarkdown, visitUrls } from '../markdown.js';
import { embeddableImage } from './images.js';
import { renderPdf } from './render.js';
import type { FontFace, FontFamily } from '../../pdf-fonts.js';
import { addFamilies } from './scripts.js';
import type { PrintedPage, PrintSource, RawPage } from './print-source.js';

/**
 * The two jobs of a PDF export: finding what the printed bodies point at (so that the main thread reads
 * those pages and files from the store), then rendering. Both parse the pages' Markdown, the first only to
 * walk its links: parsing twice in a worker thread costs the main thread nothing, where sending parsed trees
 * back would cost it their cloning.
 */

/** How many pages are parsed between two pauses (the in-process runner runs jobs on the main thread). */
const PAGES_PER_SLICE = 32;

/** Parses page bodies, pausing now and then. */
async function parseAll(markdown: readonly string[]): Promise<Root[]> {
  const roots: Root[] = [];
  for (const [index, text] of markdown.entries()) {
    if (index > 0 && index % PAGES_PER_SLICE === 0) await pause();
    roots.push(text === '' ? { type: 'root', children: [] } : parseMarkdown(text));
  }
  return roots;
}

/**
 * What printed bodies point at: the ids of pages (links, also to their headings) and of image files, each
 * once, in order; and the font families their text needs beyond the standard fonts (scripts.ts).
 */
export interface PrintReferences {
  readonly pages: readonly string[];
  readonly images: readonly string[];
  readonly families: readonly FontFamily[];
}

/** The job that finds what bodies point at, from their Markdown. */
export const pdfReferencesJob = defineJob({
  name: 'pdfReferences',
  what: 'reading the pages of a PDF',
  async run(markdown: readonly string[]): Promise<PrintReferences> {
    const pages = new Set<string>();
    const images = new Set<string>();
    const families = new Set<FontFamily>();
    for (const text of markdown) addFamilies(text, families);
    for (const root of await parseAll(markdown)) {
      visitUrls(root, (node) => {
        const ref = refOfUrl(node.url);
        if (ref.kind === 'page' || (ref.kind === 'anchor' && ref.page !== undefined)) pages.add(ref.page!);
        else if (ref.kind === 'file' && (node.type === 'image' || node.type === 'definition')) images.add(ref.file);
      });
    }
    return { pages: [...pages], images: [...images], families: [...families] };
  },
});

/**
 * What rendering needs: the export with its pages unparsed, the bytes of the image files it shows (checked
 * here) and of the fonts its text needs.
 */
export interface RenderInput extends Omit<PrintSource, 'pages'> {
  readonly pages: readonly RawPage[];
  readonly images: ReadonlyMap<string, Uint8Array>;
  readonly fonts: ReadonlyMap<FontFace, Uint8Array>;
}

/** The job that renders an export into PDF bytes (render.ts), which move back to the caller. */
export const renderPdfJob = defineJob({
  name: 'renderPdf',
  what: 'rendering a PDF',
  async run({ pages, images, fonts, ...source }: RenderInput): Promise<Uint8Array> {
    const roots = await parseAll(pages.map((page) => page.markdown));
    const printed: PrintedPage[] = pages.map(({ markdown: _markdown, ...page }, index) => ({ ...page, body: roots[index] }));
    // Every image is checked completely before pdfkit sees it (images.ts); the others print as their alt text.
    const embeddable = new Map<string, Uint8Array>();
    for (const [id, bytes] of images) if (await embeddableImage(bytes)) embeddable.set(id, bytes);
    return renderPdf({ ...source, pages: printed }, embeddable, fonts);
  },
  transferInput: (input) => buffersOf([...input.images.values(), ...input.fonts.values()]),
  transferOutput: (pdf) => buffersOf([pdf]),
});
