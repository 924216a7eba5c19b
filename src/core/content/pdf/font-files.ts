import type { FontFace, FontFamily, PdfFonts } from '../../pdf-fonts.js';
import { FACES_OF } from './scripts.js';

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
