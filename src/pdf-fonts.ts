import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ApiError } from './core/errors.js';
import type { FontFace, PdfFonts } from './core/pdf-fonts.js';

/**
 * The fonts of PDF exports on Node: the Noto fonts of the `@embedpdf/fonts-*` npm packages (SIL Open Font
 * License), read from where the packages are installed each time an export needs them (the operating
 * system keeps them cached; the bytes move to the render job). Noto Sans covers Latin, Greek and Cyrillic;
 * Noto Sans Hebrew, Noto Naskh Arabic; Noto Sans CJK SC ("Hans", 30,000 glyphs) Chinese and Japanese; Noto
 * Sans KR Korean. Each package is read from its `fonts/` folder, beside the `dist/` its entry lives in.
 * The packages are optional dependencies (84 MB, most of an install): nothing looks for them before a
 * PDF's text needs one, and an app that embeds the library and makes no PDFs may leave them out
 * (`npm install --omit=optional`).
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

/** Finds an installed package's entry file (require.resolve), throwing when it is not installed. */
export type ResolvePackage = (specifier: string) => string;

/**
 * The Noto fonts of the npm packages, found by `resolve` (default: from this module, as Node does). A text
 * whose script needs a package that is not installed fails its PDF with a 501 that names the package to
 * install; text the standard fonts show needs none.
 */
export function notoPdfFonts(options: { resolve?: ResolvePackage } = {}): PdfFonts {
  const resolve = options.resolve ?? createRequire(import.meta.url).resolve;
  const folders = new Map<string, string>();
  const folderOf = (pkg: string) => {
    let folder = folders.get(pkg);
    if (folder === undefined) {
      try {
        folder = join(dirname(dirname(resolve(pkg))), 'fonts');
      } catch {
        throw new ApiError(501, `PDF fonts: install ${pkg}: this PDF's text needs its fonts, and the server was installed without them (an optional dependency of docs-platform)`);
      }
      folders.set(pkg, folder);
    }
    return folder;
  };
  return {
    async load(face) {
      const [pkg, file] = FILES[face];
      const bytes = await readFile(join(folderOf(pkg), file));
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}
