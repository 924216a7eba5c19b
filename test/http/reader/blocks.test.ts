import { expect, it } from 'vitest';
import { BLOCKS_BODY } from '../../content/blocks-body.js';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The reader shows GitBook's blocks and code blocks as what they are, never as their syntax. */
httpSuite('reader blocks', (h) => {
  const r = readerHelpers(h);

  const pageRef = '{% content-ref url="./setup" %}\n[setup](./setup)\n{% endcontent-ref %}';
  const hostile = '{% hint style="danger" %}\n<script>alert(1)</script>\n{% endhint %}\n\n{% tabs %}\n{% tab title="<img src=x onerror=alert(1)>" %}\nx\n{% endtab %}\n{% endtabs %}\n\n{% embed url="javascript:alert(1)" %}\n\n<details>\n\n<summary><b>bold</b></summary>\n\ny\n\n</details>';

  async function site() {
    return r.publishedSite([
      { title: 'Blocks', ref: 'blocks', document: { markdown: `${BLOCKS_BODY}\n\n${pageRef}\n\n{% hint %}\nunclosed` } },
      { title: 'Setup guide', ref: 'setup', document: { markdown: 'Install it.\n' } },
      { title: 'Hostile', document: { markdown: hostile } },
    ]);
  }

  it('renders hints and alerts as labelled notes, tabs as radio buttons, expandables as <details>', async () => {
    const published = await site();
    const page = await r.page(published.url);
    expect(page).toContain('<div class="hint hint-warning" role="note" aria-label="Warning"><p class="hint-label" aria-hidden="true">Warning</p><p>Careful <strong>now</strong>.</p>');
    expect(page).toMatch(/<div class="hint hint-warning" role="note" aria-label="Warning">[^]*<p>Mind it.<\/p>/);
    expect(page).toContain('<input type="radio" class="tab-input" name="tabs-1" id="tabs-1-0" checked><label class="tab-label" id="tabs-1-0-label" for="tabs-1-0">macOS</label><div class="tab-panel" role="group" aria-labelledby="tabs-1-0-label"><div class="hint hint-info"');
    expect(page).toContain('<input type="radio" class="tab-input" name="tabs-1" id="tabs-1-1"><label class="tab-label" id="tabs-1-1-label" for="tabs-1-1">Linux</label>');
    expect(page).toContain('<details class="expandable"><summary>More</summary><div><p>Hidden</p>\n</div></details>');
    // No tag is left as text, but the unclosed one.
    expect(page.replace('{% hint %}', '')).not.toMatch(/\{%|\[!WARNING\]|&lt;details/);
    expect(page).toContain('<p>{% hint %}\nunclosed</p>');
  });

  it('resolves a link written in a block by a definition outside it, and one outside by a definition inside', async () => {
    const published = await r.publishedSite([
      {
        title: 'Refs',
        document: { markdown: '{% hint style="info" %}\nRead [the guide][guide].\n\n[inside]: https://example.com/inside\n{% endhint %}\n\nOr [this one][inside].\n\n[guide]: https://example.com/guide\n' },
      },
    ]);
    const page = await r.page(published.url);
    expect(page).toContain('Read <a href="https://example.com/guide"');
    expect(page).toContain('Or <a href="https://example.com/inside"');
    expect(page).toContain('<meta name="description" content="Read the guide.">');
  });

  it('renders embeds and files as link cards, and a reference to a page as a card with its title', async () => {
    const published = await site();
    const page = await r.page(published.url);
    expect(page).toContain('<div class="card card-embed"><a href="https://example.com/video" rel="noopener noreferrer"><span class="card-title">example.com</span><span class="card-detail">https://example.com/video</span></a></div>');
    expect(page).toContain('<div class="card card-file"><a href="https://example.com/a.pdf" rel="noopener noreferrer" download><span class="card-title">a.pdf</span><span class="card-detail">Download</span></a><div class="card-caption"><p>The caption</p>\n</div></div>');
    expect(page).toContain(`<div class="card card-page"><a href="${published.url}/setup-guide"><span class="card-title">Setup guide</span>`);
  });

  it('renders code blocks with their title, language, line numbers, wrapping and a hidden copy button', async () => {
    const published = await site();
    const page = await r.page(published.url);
    expect(page).toMatch(/<div class="code-block" data-line-numbers data-wrap><div class="code-bar"><span class="code-title">config.toml<\/span><span class="code-language">toml<\/span><button type="button" class="copy" hidden>Copy<\/button><\/div><pre class="code" tabindex="0"[^>]*><code class="hljs language-toml"><span class="line"><span class="hljs-section">\[server\]<\/span><\/span>\n<span class="line"><span class="hljs-attr">port<\/span> = <span class="hljs-number">8080<\/span><\/span><\/code><\/pre><\/div>/);
  });

  it('escapes what blocks carry, and shows a URL the core did not resolve as text', async () => {
    const published = await site();
    const page = await r.page(`${published.url}/hostile`);
    expect(page).not.toMatch(/<script>alert|<img src=x|href="javascript:/);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;</label>');
    expect(page).toContain('<p>javascript:alert(1)</p>');
    expect(page).toContain('<summary>&lt;b&gt;bold&lt;/b&gt;</summary>');
  });
});
