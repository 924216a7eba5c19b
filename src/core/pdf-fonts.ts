/**
 * The PDF fonts port: where the fonts that PDF exports embed come from. Reading font files is the runtime's
 * business (the core reads no files), so it is injected with `createPlatform({ pdfFonts })`; the Node entry's
 * default reads the Noto fonts of npm packages (src/pdf-fonts.ts). Declared here, at the base of the core, so
 * that the context names the port without depending on the PDF feature that uses it.
 */

/**
 * The writing systems an export's text needs beyond the standard fonts, so that only the fonts it uses are
 * read and handed to the render job: `sans` (Latin beyond Western European, Greek, Cyrillic, symbols),
 * `hebrew`, `arabic`, `cjk` (Chinese, Japanese kana and kanji) and `korean` (Hangul).
 */
export type FontFamily = 'sans' | 'hebrew' | 'arabic' | 'cjk' | 'korean';

/** A font file: a family in one style. Families without italics use their upright face for italic text. */
export type FontFace = `${FontFamily}-${'regular' | 'bold' | 'italic' | 'bold-italic'}`;

/**
 * The fonts of a platform. Without any, exports use the standard fonts alone and print characters outside
 * Western European text as close ones or `?`.
 */
export interface PdfFonts {
  /** The bytes of a face (a TrueType or OpenType font), or undefined when there is none. A new array each time: it moves to the render job. */
  load(face: FontFace): Promise<Uint8Array | undefined>;
}

/** The fonts of a platform given none. */
export const noPdfFonts: PdfFonts = { load: async () => undefined };
