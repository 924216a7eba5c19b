import { FACES_OF, type FontFace, type FontFamily } from './scripts.js';

/**
 * Where the fonts that PDF exports embed come from: a port, because reading font files is the runtime's
 * business (the core reads no files). `createPlatform({ pdfFonts })`; the Node entry's default reads the
 * Noto fonts of the npm packages it depends on (src/pdf-fonts.ts). Without one, exports use the standard
 * fonts alone and print characters outside Western European text as close ones or `?`.
 */
export interface PdfFonts {
  /** The bytes of a face (a TrueType or OpenType font), or undefined when there is none. A new array each time: it moves to the render job. */
  load(face: FontFace): Promise<Uint8Array | undefined>;
}

/** The fonts of a platform given none. */
export const noPdfFonts: PdfFonts = { load: async () => undefined };

/** The faces of the families an export needs, as the port gives them (a family it lacks is left out). */
export async function loadFontFiles(fonts: PdfFonts, families: Iterable<FontFamily>): Promise<Map<FontFace, Uint8Array>> {
  const files = new Map<FontFace, Uint8Array>();
  for (const family of families) {
    for (const face of FACES_OF[family]) {
      const bytes = await fonts.load(face);
      if (bytes) files.set(face, bytes);
    }
  }
  return files;
}
