import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { FontChain } from '../../src/core/content/pdf/font-chain.js';
import { loadFontFiles } from '../../src/core/content/pdf/font-files.js';
import { encodable, PDFDocument } from '../../src/core/content/pdf/fonts.js';
import { FONT_FAMILIES } from '../../src/core/content/pdf/scripts.js';
import { notoPdfFonts } from '../../src/pdf-fonts.js';
import { runs } from './runs.js';

/**
 * The font chain cuts any text in the scripts the fonts cover into runs that give back the text exactly:
 * nothing spelled as `?`, no two neighbouring runs in one font, Western European text in the standard fonts,
 * and a phrase of one script with its spaces and punctuation in one run.
 */

/** Characters of each script the fonts cover, and what sits between words. */
const ALPHABETS = {
  western: 'abcXYZéüßç€',
  extended: 'ŁłőŐčřž',
  cyrillic: 'абвгдеёжЯЮЩ',
  greek: 'αβγδεΩΣλ',
  hebrew: 'אבגדהוזשלם',
  arabic: 'ابتثجحخمرل',
  cjk: '日本語のテキスト简体中文繁體',
  korean: '한국어텍스트가나다',
};
const word = fc.constantFrom(...Object.values(ALPHABETS)).chain((alphabet) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 8 }));
const text = fc.array(fc.tuple(word, fc.constantFrom(' ', ', ', '. ', ' (1) ', '')), { maxLength: 12 }).map((parts) => parts.map(([w, gap]) => w + gap).join(''));
const style = fc.record({ bold: fc.boolean(), italic: fc.boolean(), code: fc.boolean() });

let chain: FontChain;
beforeAll(async () => {
  chain = new FontChain(new PDFDocument({ autoFirstPage: false }), await loadFontFiles(notoPdfFonts(), FONT_FAMILIES));
});

describe('the font chain', () => {
  it('gives the text back exactly, in runs of distinct neighbouring fonts, Western text in the standard fonts', () => {
    fc.assert(
      fc.property(text, style, (value, runStyle) => {
        const runs = chain.runs(value, runStyle);
        expect(runs.map((run) => run.text).join('')).toBe(value);
        runs.forEach((run, i) => {
          if (i > 0) expect(run.font).not.toBe(runs[i - 1]!.font);
          const standard = run.font === 'Courier' || run.font.startsWith('Helvetica');
          // A standard run holds only what WinAnsi has; an embedded one starts with what WinAnsi lacks or with its own script.
          if (standard) for (const char of run.text) expect(encodable(char.codePointAt(0)!)).toBe(true);
        });
        // A word of one script, all of it beyond WinAnsi, is never cut (a Latin word that mixes letters WinAnsi
        // has with ones it lacks may be: the former print in Helvetica until one of the latter comes).
        for (const part of value.split(/[ ,.()0-9]+/)) {
          if (part === '' || [...part].some((char) => encodable(char.codePointAt(0)!))) continue;
          if (new Set([...part].map((char) => Object.entries(ALPHABETS).find(([, alphabet]) => alphabet.includes(char))![0])).size > 1) continue;
          expect(runs.some((run) => run.text.includes(part))).toBe(true);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
