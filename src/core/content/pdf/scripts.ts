import type { FontFace, FontFamily } from '../../pdf-fonts.js';
import { encodable } from './fonts.js';

/** Every family, in the order the renderer tries them for a character (the fallback chain after the standard fonts). */
export const FONT_FAMILIES: readonly FontFamily[] = ['sans', 'hebrew', 'arabic', 'cjk', 'korean'];

/** The faces of each family: only `sans` has italics. */
export const FACES_OF: Readonly<Record<FontFamily, readonly FontFace[]>> = {
  sans: ['sans-regular', 'sans-bold', 'sans-italic', 'sans-bold-italic'],
  hebrew: ['hebrew-regular', 'hebrew-bold'],
  arabic: ['arabic-regular', 'arabic-bold'],
  cjk: ['cjk-regular', 'cjk-bold'],
  korean: ['korean-regular', 'korean-bold'],
};

/** Unicode ranges of the families other than `sans`, as [first, last, family]. */
const RANGES: readonly (readonly [number, number, FontFamily])[] = [
  [0x0590, 0x05ff, 'hebrew'],
  [0xfb1d, 0xfb4f, 'hebrew'],
  [0x0600, 0x06ff, 'arabic'],
  [0x0750, 0x077f, 'arabic'],
  [0x08a0, 0x08ff, 'arabic'],
  [0xfb50, 0xfdff, 'arabic'],
  [0xfe70, 0xfeff, 'arabic'],
  [0x1100, 0x11ff, 'korean'],
  [0x3130, 0x318f, 'korean'],
  [0xa960, 0xa97f, 'korean'],
  [0xac00, 0xd7ff, 'korean'],
  [0x2e80, 0x2fff, 'cjk'],
  [0x3000, 0x312f, 'cjk'],
  [0x3190, 0x9fff, 'cjk'],
  [0xf900, 0xfaff, 'cjk'],
  [0xfe30, 0xfe4f, 'cjk'],
  [0xff00, 0xffef, 'cjk'],
  [0x20000, 0x3ffff, 'cjk'],
];

/** The family a character needs, or undefined when the standard fonts show it (or it is a control character). */
export function familyOf(code: number): FontFamily | undefined {
  if (encodable(code) || code < 0x20 || (code >= 0x7f && code < 0xa0)) return undefined;
  for (const [first, last, family] of RANGES) if (code >= first && code <= last) return family;
  return 'sans';
}

/** Adds to `into` the families the characters of `text` need. */
export function addFamilies(text: string, into: Set<FontFamily>): void {
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    // Most text is ASCII: the common case stays one comparison.
    if (code < 0x7f) continue;
    const family = familyOf(code);
    if (family) into.add(family);
  }
}
