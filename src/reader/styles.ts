import type { SiteChrome } from '../core/reader.js';

/**
 * The reader's style sheet: one inline <style> (allowed by its hash), with the site's customization as CSS
 * variables: its primary color (light and dark), its corners, its font first in a stack of fonts every
 * system has, so that nothing is fetched. Narrow screens get the navigation above the page.
 */

const CORNERS: Record<string, string> = { straight: '0', rounded: '8px', circular: '16px' };

const BASE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:var(--font);color:var(--text);background:var(--bg);line-height:1.6}
a{color:var(--primary)}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--header-bg)}
header.site .title{font-weight:700;font-size:1.15rem;color:var(--header-text);text-decoration:none;margin-right:auto}
form.search{display:flex;gap:.25rem}
form.search input{font:inherit;padding:.35rem .6rem;border:1px solid var(--line);border-radius:var(--radius);min-width:12rem;background:var(--bg);color:var(--text)}
form.search button{font:inherit;padding:.35rem .7rem;border:0;border-radius:var(--radius);background:var(--primary);color:#fff}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;padding:0 1.25rem;border-bottom:1px solid var(--line)}
nav.tabs>a,nav.tabs summary{display:inline-block;padding:.5rem .75rem;text-decoration:none;color:var(--text);border-bottom:2px solid transparent;cursor:pointer}
nav.tabs .current>summary,nav.tabs>a.current{border-bottom-color:var(--primary);color:var(--primary);font-weight:600}
details.menu{position:relative}
details.menu>summary{list-style:none}
details.menu>summary::-webkit-details-marker{display:none}
details.menu>div{position:absolute;z-index:5;min-width:12rem;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:.25rem 0;box-shadow:0 4px 16px rgba(0,0,0,.12)}
details.menu>div a{display:block;padding:.35rem .9rem;text-decoration:none;color:var(--text)}
details.menu>div a.current{color:var(--primary);font-weight:600}
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr) 14rem;gap:2rem;max-width:84rem;margin:0 auto;padding:1.5rem 1.25rem}
aside.tree{font-size:.94rem}
aside.tree ul{list-style:none;margin:0;padding-left:.9rem}
aside.tree nav>ul{padding-left:0}
aside.tree a{display:block;padding:.2rem .5rem;border-radius:var(--radius);text-decoration:none;color:var(--text)}
aside.tree a[aria-current=page]{background:var(--tint);color:var(--primary);font-weight:600}
aside.tree li.folded>a::after{content:' ›';color:var(--muted)}
aside.tree .group{margin:1rem 0 .25rem;font-size:.78rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.variants{margin-bottom:1rem}
main{min-width:0}
main h1.page-title{margin:.2rem 0 .4rem;font-size:2rem;line-height:1.25}
main .description{color:var(--muted);font-size:1.1rem;margin:0 0 1.5rem}
main h2,main h3,main h4{position:relative;scroll-margin-top:1rem}
main .anchor{position:absolute;left:-1.1rem;opacity:0;text-decoration:none}
main h2:hover .anchor,main h3:hover .anchor,main h4:hover .anchor{opacity:.6}
pre.code{background:var(--code-bg);padding:1rem;border-radius:var(--radius);overflow:auto;font-size:.88rem;line-height:1.45}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--code-bg);padding:.1rem .3rem;border-radius:4px;font-size:.9em}
.table{overflow-x:auto}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:.35rem .7rem;text-align:left}
img{max-width:100%}
figure.cover{margin:0 0 1.5rem}figure.cover img{display:block;width:100%;height:14rem;object-fit:cover;border-radius:var(--radius,.5rem)}figure.cover-full img,figure.cover-background img{height:20rem}
li.task{list-style:none}
blockquote{margin:1rem 0;padding:.25rem 1rem;border-left:3px solid var(--primary);color:var(--muted)}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;border-top:1px solid var(--line);padding-top:1rem}
nav.pagination a{display:block;max-width:48%;padding:.6rem .9rem;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none}
nav.pagination .next{margin-left:auto;text-align:right}
nav.pagination small{display:block;color:var(--muted)}
aside.outline{font-size:.88rem}
aside.outline ul{list-style:none;padding:0;margin:0;position:sticky;top:1rem}
aside.outline li.level-3{padding-left:.8rem}
aside.outline li.level-4{padding-left:1.6rem}
aside.outline a{color:var(--muted);text-decoration:none}
.results ol{padding-left:1.2rem}
.results li{margin-bottom:1rem}
.results .excerpt{color:var(--muted);font-size:.92rem}
#instant{position:absolute;right:1.25rem;top:3.5rem;z-index:10;width:min(32rem,calc(100vw - 2.5rem));max-height:70vh;overflow:auto;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem;box-shadow:0 8px 24px rgba(0,0,0,.15)}
#instant[hidden]{display:none}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#cf222e}.hljs-string,.hljs-attr{color:#0a3069}.hljs-comment{color:#6e7781;font-style:italic}.hljs-number,.hljs-literal{color:#0550ae}.hljs-title,.hljs-name{color:#8250df}
@media (max-width:1100px){.layout{grid-template-columns:15rem minmax(0,1fr)}aside.outline{display:none}}
@media (max-width:720px){.layout{display:block;padding:1rem}aside.tree{margin-bottom:1.5rem;border-bottom:1px solid var(--line);padding-bottom:1rem}form.search input{min-width:0;width:100%}form.search{width:100%}main h1.page-title{font-size:1.6rem}}
@media (prefers-color-scheme:dark){:root{--text:#e6e6e6;--bg:#111317;--header-bg:#15181d;--header-text:#f0f0f0;--line:#2a2f37;--muted:#9aa3ad;--code-bg:#1b1f26;--primary:var(--primary-dark);--tint:rgba(255,255,255,.06)}}
`;

const THEMES: Record<string, { headerBg: string; headerText: string }> = {
  clean: { headerBg: 'var(--bg)', headerText: 'var(--text)' },
  muted: { headerBg: '#f5f6f8', headerText: 'var(--text)' },
  bold: { headerBg: 'var(--primary)', headerText: '#ffffff' },
  gradient: { headerBg: 'linear-gradient(90deg,var(--primary),#7b5cd6)', headerText: '#ffffff' },
};

const color = (value: unknown, fallback: string) => (typeof value === 'string' && /^#[0-9a-fA-F]{3,6}$/.test(value) ? value : fallback);
const fontName = (value: unknown) => (typeof value === 'string' && /^[A-Za-z0-9]+$/.test(value) ? value.replace(/([a-z])([A-Z])/g, '$1 $2') : 'Inter');

/** The style sheet of a site. */
export function styleSheet(chrome: Pick<SiteChrome, 'styling'>): string {
  const styling = chrome.styling as Record<string, any>;
  const theme = THEMES[styling.theme] ?? THEMES.clean;
  const primary = color(styling.primaryColor?.light, '#346DDB');
  const primaryDark = color(styling.primaryColor?.dark, primary);
  const radius = CORNERS[styling.corners] ?? CORNERS.rounded;
  const font = fontName(styling.font);
  const vars = `:root{--primary:${primary};--primary-dark:${primaryDark};--radius:${radius};--font:"${font}",system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji";--text:#1d1f23;--bg:#ffffff;--header-bg:${theme.headerBg};--header-text:${theme.headerText};--line:#e3e5e8;--muted:#5f6670;--code-bg:#f4f5f7;--tint:rgba(52,109,219,.08)}`;
  return vars + BASE;
}
