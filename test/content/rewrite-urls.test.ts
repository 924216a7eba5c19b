import { describe, expect, it } from 'vitest';
import { rewriteUrls } from '../../src/core/content/rewrite-urls.js';

/** rewriteUrls: link, image and definition URLs replaced where they are written, nothing else touched. */
describe('rewriteUrls', () => {
  const upper = (url: string) => (url.startsWith('/pages/') ? url.toUpperCase() : undefined);

  it('replaces the URLs of links, images and definitions, titles and texts kept', () => {
    const text = '[a /pages/x](/pages/x "t /pages/x") ![/pages/y](/pages/y) [](/pages/z)\n\n[d]: /pages/d "T"\n';
    expect(rewriteUrls(text, upper)).toBe('[a /pages/x](/PAGES/X "t /pages/x") ![/pages/y](/PAGES/Y) [](/PAGES/Z)\n\n[d]: /PAGES/D "T"\n');
  });

  it('leaves code, text, other URLs and GitBook blocks as written', () => {
    const text = '{% content-ref url="/pages/x" %}\n[x](/pages/x)\n{% endcontent-ref %}\n\n`[a](/pages/a)`\n\n    [b](/pages/b)\n\n[c](https://example.com/pages/c)\n';
    expect(rewriteUrls(text, upper)).toBe(text.replace('[x](/pages/x)', '[x](/PAGES/X)'));
  });

  it('answers the text itself when nothing is rewritten', () => {
    expect(rewriteUrls('plain\n', () => undefined)).toBe('plain\n');
    expect(rewriteUrls('', upper)).toBe('');
  });
});
