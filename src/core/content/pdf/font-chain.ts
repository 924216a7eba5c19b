import { encodable, fontName, printable, type FontStyle } from './fonts.js';
import type { FontFace, FontFamily } from '../../pdf-fonts.js';
import { FACES_OF, FONT_FAMILIES, familyOf } from './scripts.js';

/**
 * The fonts a PDF writes each character in: the standard fonts (Helvetica, Courier) for what their WinAnsi
 * encoding has, then, in order, the embedded fonts the export was given (font-files.ts): Noto Sans for the
 * rest of Latin, Greek and Cyrillic, then Hebrew, Arabic, CJK and Korean. Text is cut into runs of one font;
 * spaces, digits and punctuation stay in the run they are in, so a word or a sentence of one script is one
 * run. pdfkit subsets an embedded font to the glyphs the PDF uses, and lays out each run with fontkit, which
 * shapes Arabic and writes right-to-left runs in visual order (their text still extracts as written).
 */

/** The fonts given to one render, by face. */
export type FontFiles = ReadonlyMap<FontFace, Uint8Array>;

/** A run of text in one font (a standard font's name or an embedded face). */
export interface FontRun {
  readonly text: string;
  readonly font: string;
}

/** What a PDFFont of pdfkit is underneath, for an embedded font: its fontkit font. */
interface LoadedFont {
  readonly font?: { hasGlyphForCodePoint(code: number): boolean };
}

const COMMON = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Whether a font is one of the standard ones (not embedded). */
const isStandard = (font: string) => font === 'Courier' || font.startsWith('Helvetica');

/** The fallback chain of one document. */
export class FontChain {
  private readonly families: readonly FontFamily[];
  private readonly glyphs = new Map<string, (code: number) => boolean>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly files: FontFiles,
  ) {
    for (const [face, bytes] of files) doc.registerFont(face, bytes as never);
    this.families = FONT_FAMILIES.filter((family) => files.has(`${family}-regular`));
  }

  /** Cuts text into runs of the font that shows each character in a style; what no font shows is spelled by `printable`. */
  runs(text: string, style: FontStyle): FontRun[] {
    const standard = fontName(style);
    if (this.families.length === 0) return [{ text: printable(text), font: standard }];
    const runs: { text: string; font: string }[] = [];
    let current: { text: string; font: string } | undefined;
    for (const char of text) {
      const code = char.codePointAt(0)!;
      let font: string;
      if (current && this.keeps(current.font, char, code)) font = current.font;
      else if (encodable(code) || code < 0xa0) font = standard;
      else font = this.pick(code, style) ?? standard;
      // The standard fonts spell what they lack (and drop control characters, tabs become spaces).
      const shown = isStandard(font) ? printable(char) : char;
      if (shown === '') continue;
      if (current?.font === font) current.text += shown;
      else runs.push((current = { text: shown, font }));
    }
    return runs;
  }

  /** One font for a whole string (a table cell): the embedded face that shows most of it, the rest spelled by `printable`. */
  single(text: string, style: FontStyle): FontRun {
    const runs = this.runs(text, style);
    if (runs.length <= 1) return runs[0] ?? { text: '', font: fontName(style) };
    const weight = new Map<string, number>();
    for (const run of runs) if (!isStandard(run.font)) weight.set(run.font, (weight.get(run.font) ?? 0) + run.text.length);
    const font = [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? fontName(style);
    const shows = this.glyphTest(font);
    return { font, text: [...text].map((char) => (shows(char.codePointAt(0)!) || COMMON.test(char) ? char : printable(char) || '')).join('') };
  }

  /** Whether a run in `font` goes on with `char`: a space or punctuation it shows, or a letter of its own family. */
  private keeps(font: string, char: string, code: number): boolean {
    if (isStandard(font)) return encodable(code) || code < 0xa0;
    if (!this.glyphTest(font)(code)) return false;
    const family = font.slice(0, font.indexOf('-')) as FontFamily;
    return COMMON.test(char) || family === 'sans' || familyOf(code) === family;
  }

  /** The first embedded face, in the chain's order, that shows a character in a style. */
  private pick(code: number, style: FontStyle): FontFace | undefined {
    for (const family of this.families) {
      const face = this.faceOf(family, style);
      if (this.glyphTest(face)(code)) return face;
    }
    return undefined;
  }

  /** The face of a family for a style: bold where there is one, italic only in Noto Sans, code upright. */
  private faceOf(family: FontFamily, style: FontStyle): FontFace {
    const bold = style.bold === true && !style.code;
    const italic = style.italic === true && !style.code && FACES_OF[family].length > 2;
    const face = `${family}-${bold && italic ? 'bold-italic' : bold ? 'bold' : italic ? 'italic' : 'regular'}` as FontFace;
    return this.files.has(face) ? face : (`${family}-regular` as FontFace);
  }

  /** Whether an embedded face has a glyph for a code point (read from the font pdfkit loaded). */
  private glyphTest(face: string): (code: number) => boolean {
    let test = this.glyphs.get(face);
    if (!test) {
      const doc = this.doc as unknown as { _font: LoadedFont };
      const saved = doc._font;
      this.doc.font(face);
      const font = doc._font.font;
      doc._font = saved;
      test = font ? (code: number) => font.hasGlyphForCodePoint(code) : encodable;
      this.glyphs.set(face, test);
    }
    return test;
  }
}
