import PDFDocument from 'pdfkit';
import * as pdfkit from 'pdfkit';
import Courier from 'pdfkit/standard-fonts/Courier';
import Helvetica from 'pdfkit/standard-fonts/Helvetica';
import HelveticaBold from 'pdfkit/standard-fonts/HelveticaBold';
import HelveticaBoldOblique from 'pdfkit/standard-fonts/HelveticaBoldOblique';
import HelveticaOblique from 'pdfkit/standard-fonts/HelveticaOblique';

/**
 * The fonts of exported PDFs: the standard PDF fonts (Helvetica for text, Courier for code), which every
 * viewer has, so nothing is embedded. pdfkit picks its build by runtime: Node gets its Node build (which
 * loads these metrics itself), other runtimes its browser build, which needs them registered first
 * (`registerStdFonts`, absent from the Node build). Importing the metrics here keeps the core free of any
 * file-system access either way.
 */

const registerStdFonts = (pdfkit as unknown as { registerStdFonts?: (...fonts: unknown[]) => void }).registerStdFonts;
registerStdFonts?.(Helvetica, HelveticaBold, HelveticaOblique, HelveticaBoldOblique, Courier);

/** The PDF document class, with the standard fonts it uses available in every runtime. */
export { PDFDocument };

/** The font of a run of text: its weight and slant, or code. */
export interface FontStyle {
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly code?: boolean;
}

/** The standard font name of a style. Code is plain Courier: its bold and slanted cuts are not registered. */
export function fontName(style: FontStyle): string {
  if (style.code) return 'Courier';
  if (style.bold && style.italic) return 'Helvetica-BoldOblique';
  if (style.bold) return 'Helvetica-Bold';
  if (style.italic) return 'Helvetica-Oblique';
  return 'Helvetica';
}

/** The characters beyond Latin-1 that the standard fonts' WinAnsi encoding has (pdfkit's WIN_ANSI_MAP). */
const WIN_ANSI_EXTRA = new Set([
  402, 710, 732, 338, 339, 352, 353, 376, 381, 382, 8211, 8212, 8216, 8217, 8218, 8220, 8221, 8222, 8224, 8225, 8226, 8230, 8240, 8249, 8250,
  8364, 8482,
]);

/** Common characters WinAnsi lacks, spelled with ones it has. */
const SUBSTITUTES: Readonly<Record<string, string>> = {
  '→': '->',
  '←': '<-',
  '⇒': '=>',
  '≤': '<=',
  '≥': '>=',
  '≠': '!=',
  '✓': 'v',
  '✔': 'v',
  '✗': 'x',
  '✘': 'x',
  '−': '-',
  '‐': '-',
  '‑': '-',
  '\u2009': ' ',
  '\u200b': '',
  '\ufeff': '',
};

/** Whether the standard fonts can show a character. */
export const encodable = (code: number) => (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(code);

/**
 * Text the standard fonts can show: characters outside their WinAnsi encoding would print as unrelated
 * glyphs, so each is spelled with close ones (`→` as `->`, `ő` as `o`) or else shown as `?`. Tabs become
 * spaces; other control characters are dropped.
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (encodable(code) || char === '\n') out += char;
    else if (char === '\t') out += '    ';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) continue;
    else if (SUBSTITUTES[char] !== undefined) out += SUBSTITUTES[char];
    else {
      // A letter with an accent WinAnsi lacks (ő, ł is not decomposable) keeps its base letter.
      const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += base !== char && [...base].every((part) => encodable(part.codePointAt(0)!)) ? base : '?';
    }
  }
  return out;
}
