import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** Content that users wrote cannot inject script: every text is escaped, raw HTML is text, unsafe links are text. */
httpSuite('reader escaping', (h) => {
  const r = readerHelpers(h);
  const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>"\'&';

  /** Fails when a document holds markup that could run: a script element but the reader's own, an event attribute, a script URL in an attribute. */
  function assertInert(html: string): void {
    const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBe(1);
    expect(scripts[0][1]).toMatch(/^\(function\(\)\{/);
    // Quoted attribute values hold escaped text only (no `"` survives escaping), so they are dropped first.
    const handler = /<[a-z][^>]*\son[a-z]+\s*=[^>]*>/i.exec(html.replace(/="[^"]*"/g, '=""'));
    expect(handler?.[0]).toBeUndefined();
    expect(html).not.toMatch(/(?:href|src|action)\s*=\s*"\s*(?:javascript|vbscript|data):/i);
    expect(html).not.toMatch(/<(?:iframe|object|embed|svg|math|base|form(?! class="search"))\b/i);
  }

  it('escapes hostile titles, descriptions, section and site space names, and renders hostile Markdown inert', async () => {
    const markdown = [
      `Raw ${XSS} inline.`,
      '',
      '<div onclick="alert(3)">block html</div>',
      '',
      '[js](javascript:alert(4)) [JS](JaVaScRiPt:alert(5)) [vb](vbscript:msgbox(6)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com/?a=1&b="2")',
      '',
      '![img](javascript:alert(7)) ![pixel](data:image/png;base64,iVBORw0KGgo=) [titled](https://example.com "\\"><script>alert(8)</script>")',
      '',
      `## Heading ${XSS}`,
      '',
      '```"><script>alert(9)</script>',
      '</code></pre><script>alert(10)</script>',
      '```',
      '',
      '<javascript:alert(11)> [ref][r] `<b>code</b>`',
      '',
      '[r]: javascript:alert(12)',
      '',
    ].join('\n');
    const space = await r.spaceWith(`Space ${XSS}`.slice(0, 50), [
      { title: `Page ${XSS}`.slice(0, 100), description: `About ${XSS}`, emoji: '1f600', document: { markdown } },
      { title: `Next ${XSS}`.slice(0, 100), document: { markdown: 'Two.\n' } },
    ]);
    const other = await r.spaceWith('Other', [{ title: 'Other page', document: { markdown: 'Other.\n' } }]);
    const created = await r.createSite({ title: `Site ${XSS}`.slice(0, 128) });
    const section = await r.addSection(created.id, space, `Tab ${XSS}`.slice(0, 128));
    await r.addSiteSpace(created.id, other, section.id);
    await r.addGroup(created.id, { title: `Group ${XSS}`.slice(0, 100) });
    await r.publish(created.id);
    const url = (await r.published(created.id)).site.urls.published;
    const html = await r.page(url);
    assertInert(html);
    expect(html).toContain('Page &lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#39;&amp;');
    expect(html).toContain('😀');
    expect(html).toContain('&lt;div onclick=&quot;alert(3)&quot;&gt;block html&lt;/div&gt;');
    // Unsafe links are their text alone; the safe one keeps its (escaped) URL.
    expect(html).toMatch(/<p>js JS vb data <a href="https:\/\/example\.com\/\?a=1&amp;b=&quot;2&quot;" rel="noopener noreferrer">ok<\/a>/);
    expect(html).toContain('<p>img pixel <a href="https://example.com" title="&quot;&gt;&lt;script&gt;alert(8)&lt;/script&gt;"');
    expect(html).toContain('<code>&lt;b&gt;code&lt;/b&gt;</code>');
    expect(html).toContain('&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(10)&lt;/script&gt;');
    // An autolink and a reference link with a script URL are text too.
    expect(html).toContain('<p>javascript:alert(11) ref <code>');
    // The search page and the 404 page echo what was asked, escaped.
    assertInert(await r.page(`${url}/~search?q=${encodeURIComponent(XSS)}`));
    const missing = await r.read(`${url}/${encodeURIComponent(XSS)}`);
    expect(missing.status).toBe(404);
    assertInert(missing.text);
  });

  it('keeps hostile claims and query values out of the page', async () => {
    const site = await r.publishedSite([{ title: 'Welcome', document: { markdown: 'Hi.\n' } }]);
    const query = `?visitor.${encodeURIComponent(XSS)}=true&visitor.x=${encodeURIComponent(XSS)}&jwt_token=${encodeURIComponent(XSS)}&share=${encodeURIComponent(XSS)}`;
    const response = await r.read(`${site.url}${query}`);
    expect(response.status).toBe(200);
    assertInert(response.text);
    expect(response.text).not.toContain('alert');
    // No cookie keeps a credential the core did not accept.
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});
