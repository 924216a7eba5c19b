import { expect, it } from 'vitest';
import { httpSuite } from '../harness.js';
import { readerHelpers } from './reader-helpers.js';

/** The reader honours a site's customization: colors, corners and fonts as CSS variables, favicon, locale, header, footer. */
httpSuite('reader customization', (h) => {
  const r = readerHelpers(h);
  const pages = [
    { title: 'Welcome', document: { markdown: 'Hello.\n' } },
    { title: 'Setup', document: { markdown: 'Steps.\n' } },
  ];
  /** The inline style sheet of a document. */
  const style = (text: string) => /<style>([\s\S]*?)<\/style>/.exec(text)?.[1] ?? '';

  it('styles the site with its colors, tint, corners, fonts and color mode', async () => {
    const site = await r.publishedSite(pages);
    const before = style(await r.page(site.url));
    expect(before).toContain('--primary:#346DDB;--primary-dark:#346DDB;');
    expect(before).toContain('@media (prefers-color-scheme:dark)');
    await r.customize(site.id, (settings) => {
      settings.styling.primaryColor = { light: '#C0FFEE', dark: '#123456' };
      settings.styling.tint = { color: { light: '#ABCDEF', dark: '#FEDCBA' } };
      settings.styling.warningColor = { light: '#FFAA00', dark: '#AA7700' };
      settings.styling.corners = 'straight';
      settings.styling.font = 'SourceSansPro';
      settings.styling.headingFont = 'Merriweather';
      settings.styling.monospaceFont = 'JetBrainsMono';
      settings.styling.links = 'accent';
      settings.styling.sidebar = { background: 'filled', list: 'pill' };
      settings.themes = { default: 'dark', toggeable: false };
    });
    const sheet = style(await r.page(site.url));
    expect(sheet).toContain('--primary:#C0FFEE;--primary-dark:#123456;');
    expect(sheet).toContain('--tint:color-mix(in srgb,#ABCDEF 10%,transparent);--tint-dark:color-mix(in srgb,#FEDCBA 18%,transparent);');
    expect(sheet).toContain('--warning:#FFAA00;--warning-dark:#AA7700;');
    expect(sheet).toContain('--radius:0;');
    expect(sheet).toContain('--font:"Source Sans Pro",system-ui');
    expect(sheet).toContain('--heading-font:"Merriweather",system-ui');
    expect(sheet).toContain('--mono:"JetBrains Mono",ui-monospace');
    expect(sheet).toContain('main a{color:var(--text);text-decoration-color:var(--primary)}');
    expect(sheet).toContain('aside.tree a{border-radius:999px}');
    // Dark always: no media query, the dark variables on the root.
    expect(sheet).not.toContain('prefers-color-scheme');
    expect(sheet).toMatch(/:root\{--text:#e6e6e6;[^}]*color-scheme:dark\}/);
  });

  it("takes a custom font's family, and keeps only its letters, digits, spaces, _ and -", async () => {
    const site = await r.publishedSite(pages);
    await r.customize(site.id, (settings) => {
      settings.styling.font = { id: 'x', custom: true, fontFamily: 'Brand";}body{x:1', fontFaces: [{ weight: 400, sources: [{ url: 'https://fonts.acme.test/b.woff2' }] }] };
    });
    expect(style(await r.page(site.url))).toContain('--font:"Brandbodyx1",system-ui');
  });

  it('shows its favicon: an image per color scheme, or its emoji', async () => {
    const site = await r.publishedSite(pages);
    expect(await r.page(site.url)).toContain(`<link rel="icon" href="${site.url}/favicon.ico" type="image/svg+xml">`);
    await r.customize(site.id, (settings) => (settings.favicon = { icon: { light: 'https://acme.test/light.png', dark: 'https://acme.test/dark.png' } }));
    const html = await r.page(site.url);
    expect(html).toContain('<link rel="icon" href="https://acme.test/light.png" media="(prefers-color-scheme: light)">');
    expect(html).toContain('<link rel="icon" href="https://acme.test/dark.png" media="(prefers-color-scheme: dark)">');
    await r.customize(site.id, (settings) => (settings.favicon = { emoji: '1f4d8' }));
    const response = await r.read(site.url);
    const emoji = /<link rel="icon" href="data:image\/svg\+xml,([^"]+)"/.exec(response.text)?.[1];
    expect(decodeURIComponent(emoji ?? '')).toContain('>📘</text>');
    // The page's policy lets browsers show it.
    expect(response.headers.get('content-security-policy')).toContain("img-src 'self' https: http: data:;");
  });

  it("speaks the site's locale: its own words on pages, search and the 404, and the document's lang", async () => {
    const site = await r.publishedSite(pages);
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'fr'));
    const html = await r.page(site.url);
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain('placeholder="Rechercher dans Guide"');
    expect(html).toContain('<small>Suivant</small>Setup');
    const missing = await r.read(`${site.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(r.heading(missing.text)).toBe('Page introuvable');
    expect(await r.page(`${site.url}/~search?q=introuvable`)).toContain('Aucun résultat pour « introuvable ».');
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'ja'));
    expect(await r.page(`${site.url}/setup`)).toContain('<small>前へ</small>Welcome');
    await r.customize(site.id, (settings) => (settings.internationalization.locale = 'no'));
    expect(await r.page(site.url)).toContain('<small>Neste</small>Setup');
  });

  it('shows its title, logo, announcement, header links (conditions evaluated) and footer; pages link to their published URLs', async () => {
    const site = await r.publishedSite(pages);
    const [, setup] = r.ok(await h().owner.get(`/v1/spaces/${site.space}/content/pages`)).pages;
    await r.setSchema(site.id);
    await r.customize(site.id, (settings) => {
      settings.title = 'Acme Docs';
      settings.header.logo = { light: 'https://acme.test/logo.svg', dark: 'https://acme.test/logo-dark.svg' };
      settings.header.links = [
        { title: 'Get started', style: 'button-primary', to: { kind: 'page', page: setup.id }, links: [] },
        { title: 'Staff only', to: { kind: 'url', url: 'https://intra.acme.test' }, links: [], condition: 'visitor.claims.isStaff' },
        { title: 'Community', to: null, links: [{ title: 'Forum', to: { kind: 'url', url: 'https://forum.acme.test' } }, { title: 'A user', to: { kind: 'user', user: 'u1' } }] },
        { title: 'Nowhere', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] },
      ];
      settings.announcement = { enabled: true, message: 'Version 2 is out', style: 'warning', link: { title: 'Read more', to: { kind: 'space', space: site.space } } };
      settings.footer = { groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://acme.test/about' } }] }], copyright: '© 2026 Acme' };
      settings.privacyPolicy = { url: 'https://acme.test/privacy' };
      settings.pagination = { enabled: false };
    });
    const html = await r.page(site.url);
    expect(html).toContain('<title>Welcome · Acme Docs</title>');
    expect(html).toContain('<img src="https://acme.test/logo.svg" alt="Acme Docs">');
    expect(html).toContain(`<a class="header-link button-primary" href="${site.url}/setup">Get started</a>`);
    expect(html).not.toContain('Staff only');
    expect(html).toContain('<summary>Community ▾</summary><div><a href="https://forum.acme.test">Forum</a></div>');
    expect(html).not.toContain('A user');
    expect(html).not.toContain('Nowhere');
    expect(html).toContain(`<div class="announcement warning" role="note">Version 2 is out <a href="${site.url}">Read more</a></div>`);
    expect(html).toContain('<h2>Company</h2><ul><li><a href="https://acme.test/about">About</a></li></ul>');
    expect(html).toContain('<p class="legal">© 2026 Acme <a href="https://acme.test/privacy">Privacy policy</a></p>');
    expect(html).not.toContain('class="pagination"');
    // A visitor whose claims make the condition hold sees the item.
    const staff = await r.token(await r.privateKey(site.id), { isStaff: true });
    expect(await r.page(`${site.url}?jwt_token=${staff}`)).toContain('>Staff only</a>');
  });

  it('gives the 401 page of a visitor-auth site its look and words, without links into the site', async () => {
    const site = await r.publishedSite(pages, { visibility: 'visitor-auth' });
    await r.customize(site.id, (settings) => {
      settings.internationalization.locale = 'de';
      settings.styling.primaryColor = { light: '#C0FFEE', dark: '#C0FFEE' };
      settings.header.links = [
        { title: 'Home page', to: { kind: 'url', url: 'https://acme.test' }, links: [] },
        { title: 'Setup', to: { kind: 'space', space: site.space }, links: [] },
      ];
    });
    const denied = await r.read(site.url);
    expect(denied.status).toBe(401);
    expect(r.heading(denied.text)).toBe('Zum Lesen anmelden');
    expect(style(denied.text)).toContain('--primary:#C0FFEE;');
    expect(denied.text).toContain('>Home page</a>');
    expect(denied.text).not.toContain('>Setup</a>');
  });
});
