import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The reader's search covers the whole site a visitor may read, labels hits by section, marks the words that matched, and shows no markup. */
httpSuite('reader site-wide search', (h) => {
  const r = readerHelpers(h);

  it('finds pages of every section and variant from any of them, labelled, with the matched words marked and no markup', async () => {
    const guide = await r.spaceWith('Guide', [
      {
        title: 'Brewing',
        document: {
          markdown:
            '{% hint style="info" %}\nAlways **warm** the pot before brewing teapots.\n{% endhint %}\n\n```js\nconst brewing = "code stays out";\n```\n\n## Steeping\n\nSteep the leaves [for three minutes](https://example.com/tea).\n',
        },
      },
    ]);
    const reference = await r.spaceWith('Reference', [{ title: 'Kettle API', document: { markdown: 'The kettle brews on request.\n' } }]);
    const legacy = await r.spaceWith('Legacy', [{ title: 'Old kettle', document: { markdown: 'The legacy kettle brewed slowly.\n' } }]);
    const secret = await r.spaceWith('Secret', [{ title: 'Secret brew', document: { markdown: 'A brew for beta testers.\n' } }]);
    const created = await r.createSite({ title: 'Docs' });
    await r.setSchema(created.id);
    await r.addSection(created.id, guide, 'Guides');
    const section = await r.addSection(created.id, reference, 'Reference');
    await r.addSiteSpace(created.id, legacy, section.id);
    const hidden = await r.addSection(created.id, secret, 'Beta');
    r.ok(await h().owner.patch(`${r.site(created.id)}/sections/${hidden.id}`, { condition: 'visitor.claims.isBeta' }));
    await r.publish(created.id);
    const base = (await r.published(created.id)).site.urls.published as string;

    const html = await r.page(`${base}/~search?q=brew`);
    const results = html.slice(html.indexOf('<div class="results">'));
    expect(results).toContain('3 results for “brew”');
    expect(results).toContain('<small class="hit-section">Guides</small>');
    expect(results).toContain('<small class="hit-section">Reference › Reference</small>');
    expect(results).toContain('<small class="hit-section">Reference › Legacy</small>');
    // The words that matched (and the longer words the last one expanded to) are marked.
    expect(results).toMatch(/<mark>brews<\/mark>/);
    expect(results).toMatch(/<mark>brewing<\/mark>/);
    // No block tags, Markdown syntax or code in the excerpts.
    expect(results).not.toContain('{%');
    expect(results).not.toContain('**');
    expect(results).not.toContain('code stays out');
    expect(results).toContain('Always warm the pot before <mark>brewing</mark> teapots.');
    // The section left out by its condition is not searched; with the claim it is.
    expect(results).not.toContain('Secret <mark>brew</mark>');
    const token = await r.token(await r.privateKey(created.id), { isBeta: true });
    expect(await r.page(`${base}/reference/~search?q=brew&jwt_token=${token}`)).toContain('Secret <mark>brew</mark>');
    // The same search from another section's search page, and as the instant search's fragment.
    const fragment = await r.read(`${base}/reference/~search?q=steeping&fragment=1`);
    expect(fragment.text).toContain(`href="${base}/brewing#steeping"`);
    expect(fragment.text).toContain('>Steeping</a>');
  });
});
