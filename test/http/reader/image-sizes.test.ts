import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** A PNG's first bytes: the signature and an IHDR of 640 x 480 (the header is all a size is read from). */
const PNG_640_480 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 128, 0, 0, 1, 224, 8, 2, 0, 0, 0]).toString('base64');

/** An SVG sized by its viewBox and one width, after a doctype declaring an entity it never expands. */
const SVG_300_150 = Buffer.from('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY w "9999">]>\n<svg xmlns="http://www.w3.org/2000/svg" width="300" viewBox="0 0 40 20"><rect width="40" height="20"/></svg>').toString('base64');

/** Images of the space's files carry the width and height stored with the file, so the page does not shift as they load. */
httpSuite('reader image sizes', (h) => {
  const r = readerHelpers(h);

  it("gives an image of a file (PNG, SVG, ...) its stored width and height; one of unknown size, or from elsewhere, none", async () => {
    const space = await r.spaceWith('Guide', []);
    const { files } = await r.write(space, [
      { operation: 'insert_files', files: [{ name: 'shot.png', contentType: 'image/png', base64: PNG_640_480 }, { name: 'odd.png', contentType: 'image/png', base64: 'AAAA' }, { name: 'logo.svg', contentType: 'image/svg+xml', base64: SVG_300_150 }] },
    ]);
    const shot = files.find((file: { name: string }) => file.name === 'shot.png');
    const odd = files.find((file: { name: string }) => file.name === 'odd.png');
    const logo = files.find((file: { name: string }) => file.name === 'logo.svg');
    expect(logo.dimensions).toEqual({ width: 300, height: 150 });
    await r.write(space, [{ operation: 'insert_page', title: 'Pictures', document: { markdown: `![A shot](/files/${shot.id})\n\n![Odd](/files/${odd.id})\n\n![Web](https://images.example/w.png)\n\n![Logo](/files/${logo.id})\n` } }]);
    const created = await r.createSite({ title: 'Handbook', spaces: [space] });
    await r.publish(created.id);
    const html = await r.page((await r.published(created.id)).site.urls.published as string);
    const images = [...html.matchAll(/<img [^>]*>/g)].map((match) => match[0]);
    expect(images).toHaveLength(4);
    expect(images[0]).toMatch(/ alt="A shot" width="640" height="480" loading="lazy">$/);
    expect(images[1]).toMatch(/ alt="Odd" loading="lazy">$/);
    expect(images[2]).toBe('<img src="https://images.example/w.png" alt="Web" loading="lazy">');
    expect(images[3]).toMatch(/ alt="Logo" width="300" height="150" loading="lazy">$/);
  });
});
