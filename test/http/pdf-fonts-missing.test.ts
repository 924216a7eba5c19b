import { expect, it } from 'vitest';
import { notoPdfFonts } from '../../src/pdf-fonts.js';
import { authoring, md } from './authoring.js';
import { httpSuite } from './harness.js';

/**
 * The PDF fonts are optional dependencies: on a server installed without one (here, a resolver that finds
 * none of them), a PDF whose text needs its fonts fails with a 501 that names the package, and one whose
 * text the standard fonts show is made all the same.
 */

/** The packages the resolver was asked for, in order. */
const asked: string[] = [];

httpSuite(
  'PDFs without the optional font packages',
  (h) => {
    const a = authoring(h);

    /** A change request whose one page holds `markdown`; resolves to the path of its PDF. */
    async function pdfOf(markdown: string) {
      const space = await a.space({ title: 'Handbook' });
      const cr = await a.changeRequest(space.id, { subject: 'Fonts' });
      await a.batchWithChanges(space.id, cr.id, [{ operation: 'insert_page', ref: 'p', title: 'Page', document: md(markdown) }]);
      return `${a.changeRequestPath(space.id, cr.id)}/pdf`;
    }

    it('fails a PDF of Greek text with a 501 naming @embedpdf/fonts-latin, and makes one of English text', async () => {
      asked.length = 0;
      const greek = await h().owner.get(await pdfOf('Καλημέρα κόσμε.'));
      expect(greek.status).toBe(501);
      expect(greek.body.error.message).toMatch(/^PDF fonts: install @embedpdf\/fonts-latin: /);
      expect(asked).toEqual(['@embedpdf/fonts-latin']);
      const korean = await h().owner.get(await pdfOf('안녕하세요'));
      expect(korean.body.error.message).toMatch(/^PDF fonts: install @embedpdf\/fonts-kr: /);
      const english = await h().owner.get(await pdfOf('Good morning, world.'));
      expect(english.status).toBe(200);
      expect(english.body.url).toMatch(/\.pdf$/);
    });
  },
  {
    pdfFonts: notoPdfFonts({
      resolve: (specifier) => {
        asked.push(specifier);
        throw Object.assign(new Error(`Cannot find module '${specifier}'`), { code: 'MODULE_NOT_FOUND' });
      },
    }),
  },
);
