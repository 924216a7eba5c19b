import { describe, expect, it } from 'vitest';
import { printable } from '../../src/core/content/pdf/fonts.js';
import { pdfFileName } from '../../src/core/content/pdf/operation.js';

describe('PDF text and file names', () => {
  it('keeps what the standard fonts show and spells the rest with close characters or ?', () => {
    expect(printable('Plain ASCII, Latin-1 (café, Zoë, ß) and “WinAnsi” — €…')).toBe('Plain ASCII, Latin-1 (café, Zoë, ß) and “WinAnsi” — €…');
    expect(printable('a → b ≤ c ✓ ő Ł 日本 😀')).toBe('a -> b <= c v o ? ?? ?');
    expect(printable('tab\there\u0007bell\u00a0nbsp\u200bzero')).toBe('tab    herebell\u00a0nbspzero');
    expect(printable('line\nbreak')).toBe('line\nbreak');
  });

  it('names the file after the title in safe characters', () => {
    expect(pdfFileName('Fix the install guide')).toBe('Fix-the-install-guide.pdf');
    expect(pdfFileName('Renamed: v2 / final')).toBe('Renamed-v2-final.pdf');
    expect(pdfFileName('Über Straße — “quotes”')).toBe('Uber-Stra-e-quotes.pdf');
    expect(pdfFileName('../../etc/passwd')).toBe('etc-passwd.pdf');
    expect(pdfFileName('日本')).toBe('change-request.pdf');
    expect(pdfFileName('x'.repeat(150))).toBe(`${'x'.repeat(100)}.pdf`);
    expect(pdfFileName(`${'a'.repeat(99)} b`)).toBe(`${'a'.repeat(99)}.pdf`);
  });
});
