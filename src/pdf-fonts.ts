import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FontFace, PdfFonts } from './core/pdf-fonts.js';

/**
 * The fonts of PDF exports on Node: the Noto fonts of the `@embedpdf/fonts-*` npm packages (SIL Open Font
 * License), read from where the packages are installed each time an export needs them (the operating
 * system keeps them cached; the bytes move to the render job). Noto Sans covers Latin, Greek and Cyrillic;
 * Noto Sans Hebrew, Noto Naskh Arabic; Noto Sans CJK SC ("Hans", 30,000 glyphs) Chinese and Japanese; Noto
 * Sans KR Korean. Each package is read from its `fonts/` folder, beside the `dist/` its entry lives in.
 */
const FILES: Readonly<Record<FontFace, readonly [pkg: string, file: string]>> = {
  'sans-regular': ['@embedpdf/fonts-latin', 'NotoSans-Regular.ttf'],
  'sans-bold': ['@embedpdf/fonts-latin', 'NotoSans-Bold.ttf'],
  'sans-italic': ['@embedpdf/fonts-latin', 'NotoSans-Italic.ttf'],
  'sans-bold-italic': ['@embedpdf/fonts-latin', 'NotoSans-BoldItalic.ttf'],
  'hebrew-regular': ['@embedpdf/fonts-hebrew', 'NotoSansHebrew-Regular.ttf'],
  'hebrew-bold': ['@embedpdf/fonts-hebrew', 'NotoSansHebrew-Bold.ttf'],
  'hebrew-italic': ['@embedpdf/fonts-hebrew', 'NotoSansHebrew-Regular.ttf'],
  'hebrew-bold-italic': ['@embedpdf/fonts-hebrew', 'NotoSansHebrew-Bold.ttf'],
  'arabic-regular': ['@embedpdf/fonts-arabic', 'NotoNaskhArabic-Regular.ttf'],
  'arabic-bold': ['@embedpdf/fonts-arabic', 'NotoNaskhArabic-Bold.ttf'],
  'arabic-italic': ['@embedpdf/fonts-arabic', 'NotoNaskhArabic-Regular.ttf'],
  'arabic-bold-italic': ['@embedpdf/fonts-arabic', 'NotoNaskhArabic-Bold.ttf'],
  'cjk-regular': ['@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'],
  'cjk-bold': ['@embedpdf/fonts-sc', 'NotoSansHans-Bold.otf'],
  'cjk-italic': ['@embedpdf/fonts-sc', 'NotoSansHans-Regular.otf'],
  'cjk-bold-italic': ['@embedpdf/fonts-sc', 'NotoSansHans-Bold.otf'],
  'korean-regular': ['@embedpdf/fonts-kr', 'NotoSansKR-Regular.otf'],
  'korean-bold': ['@embedpdf/fonts-kr', 'NotoSansKR-Bold.otf'],
  'korean-italic': ['@embedpdf/fonts-kr', 'NotoSansKR-Regular.otf'],
  'korean-bold-italic': ['@embedpdf/fonts-kr', 'NotoSansKR-Bold.otf'],
};

/** The Noto fonts of the npm packages; a package that is not installed gives no font (its scripts print as `?`). */
export function notoPdfFonts(): PdfFonts {
  const require = createRequire(import.meta.url);
  const folders = new Map<string, string | null>();
  const folderOf = (pkg: string) => {
    if (!folders.has(pkg)) {
      try {
        folders.set(pkg, join(dirname(dirname(require.resolve(pkg))), 'fonts'));
      } catch {
        folders.set(pkg, null);
      }
    }
    return folders.get(pkg)!;
  };
  return {
    async load(face) {
      const [pkg, file] = FILES[face];
      const folder = folderOf(pkg);
      if (folder === null) return undefined;
      const bytes = await readFile(join(folder, file));
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}
