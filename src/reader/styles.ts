import { DEFAULT_SETTINGS, type SiteLook } from '../core/reader.js';
import { BLOCK_STYLES } from './block-styles.js';
import { CODE_DARK, CODE_LIGHT, CODE_RULES } from './code-theme.js';
import { LAYOUT_DARK, LAYOUT_LIGHT, LAYOUT_RULES } from './layout-styles.js';

/**
 * The reader's style sheet: one inline <style> (allowed by its hash), with the site's customization as CSS
 * variables and a few rules: its colors (primary, tint, info, success, warning, danger; light and dark), its
 * corners, its fonts first in stacks of fonts every system has (nothing is fetched: a font the visitor does
 * not have falls back), its link, sidebar and depth styles, and its color mode; then the layout's rules for
 * phones, keyboards and right-to-left pages (layout-styles.ts) and the code colors (code-theme.ts).
 */

const CORNERS: Record<string, string> = { straight: '0', rounded: '8px', circular: '16px' };

const BASE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font-family:var(--font);color:var(--text);background:var(--bg);line-height:1.6}
a{color:var(--accent-text)}
header.site{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--header-bg)}
header.site .title{font-weight:700;font-size:1.15rem;color:var(--header-text);text-decoration:none;margin-inline-end:auto}
form.search{display:flex;gap:.25rem}
form.search input{font:inherit;padding:.35rem .6rem;border:1px solid var(--line);border-radius:var(--radius);min-width:12rem;background:var(--bg);color:var(--text)}
form.search button{font:inherit;padding:.35rem .7rem;border:0;border-radius:var(--radius);background:var(--primary);color:#fff}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;padding:0 1.25rem;border-bottom:1px solid var(--line)}
nav.tabs>a,nav.tabs summary{display:inline-block;padding:.5rem .75rem;text-decoration:none;color:var(--text);border-bottom:2px solid transparent;cursor:pointer}
nav.tabs .current>summary,nav.tabs>a.current{border-bottom-color:var(--primary);color:var(--accent-text);font-weight:600}
details.menu{position:relative}
details.menu>summary{list-style:none}
details.menu>summary::-webkit-details-marker{display:none}
details.menu>div{position:absolute;z-index:5;min-width:12rem;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:.25rem 0;box-shadow:0 4px 16px rgba(0,0,0,.12)}
details.menu>div a{display:block;padding:.35rem .9rem;text-decoration:none;color:var(--text)}
details.menu>div a.current{color:var(--accent-text);font-weight:600}
.layout{display:grid;grid-template-columns:16rem minmax(0,1fr) 14rem;gap:2rem;max-width:84rem;margin:0 auto;padding:1.5rem 1.25rem}
aside.tree{font-size:.94rem}
aside.tree ul{list-style:none;margin:0;padding-inline-start:.9rem}
aside.tree nav>ul{padding-inline-start:0}
aside.tree a{display:block;padding:.2rem .5rem;border-radius:var(--radius);text-decoration:none;color:var(--text)}
aside.tree a[aria-current=page]{background:var(--tint);color:var(--current-text);font-weight:600}
aside.tree li.folded>a::after{content:' ›';color:var(--muted)}
aside.tree .group{margin:1rem 0 .25rem;font-size:.78rem;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.variants{margin-bottom:1rem}
main{min-width:0}
main h1.page-title{margin:.2rem 0 .4rem;font-size:2rem;line-height:1.25}
main .description{color:var(--muted);font-size:1.1rem;margin:0 0 1.5rem}
main h2,main h3,main h4{position:relative;scroll-margin-top:1rem}
main .anchor{position:absolute;inset-inline-start:-1.1rem;opacity:0;text-decoration:none}
main h2:hover .anchor,main h3:hover .anchor,main h4:hover .anchor{opacity:.6}
pre.code{background:var(--code-bg);padding:1rem;border-radius:var(--radius);overflow:auto;font-size:.88rem;line-height:1.45}
code{font-family:var(--mono)}
h1,h2,h3,h4{font-family:var(--heading-font)}
:not(pre)>code{background:var(--code-bg);padding:.1rem .3rem;border-radius:4px;font-size:.9em}
.table{overflow-x:auto}
table{border-collapse:collapse}
th,td{border:1px solid var(--line);padding:.35rem .7rem;text-align:start}
img{max-width:100%;height:auto}
figure.cover{margin:0 0 1.5rem}figure.cover img{display:block;width:100%;height:14rem;object-fit:cover;border-radius:var(--radius,.5rem)}figure.cover-full img,figure.cover-background img{height:20rem}
li.task{list-style:none}
blockquote{margin:1rem 0;padding:.25rem 1rem;border-inline-start:3px solid var(--primary);color:var(--muted)}
nav.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem;border-top:1px solid var(--line);padding-top:1rem}
nav.pagination a{display:block;max-width:48%;padding:.6rem .9rem;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none}
nav.pagination .next{margin-inline-start:auto;text-align:end}
nav.pagination small{display:block;color:var(--muted)}
aside.outline{font-size:.88rem}
aside.outline ul{list-style:none;padding:0;margin:0;position:sticky;top:1rem}
aside.outline li.level-3{padding-inline-start:.8rem}
aside.outline li.level-4{padding-inline-start:1.6rem}
aside.outline a{color:var(--muted);text-decoration:none}
.results ol{padding-inline-start:1.2rem}
.results li{margin-bottom:1rem}
.results .excerpt{color:var(--muted);font-size:.92rem}
#instant{position:absolute;inset-inline-end:1.25rem;top:3.5rem;z-index:10;width:min(32rem,calc(100vw - 2.5rem));max-height:70vh;overflow:auto;background:var(--bg);border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem;box-shadow:0 8px 24px rgba(0,0,0,.15)}
#instant[hidden]{display:none}
@media (max-width:1100px){.layout{grid-template-columns:15rem minmax(0,1fr)}aside.outline{display:none}}
@media (max-width:720px){.layout{display:block;padding:1rem}aside.tree{margin-bottom:1.5rem;border-bottom:1px solid var(--line);padding-bottom:1rem}form.search input{min-width:0;width:100%}form.search{width:100%}main h1.page-title{font-size:1.6rem}}
`;

/** The rules of the site's announcement, header links and footer. */
const CHROME = `
.announcement{padding:.5rem 1.25rem;text-align:center;font-size:.92rem;color:#fff;background:var(--info)}
.announcement.warning{background:var(--warning)}.announcement.danger{background:var(--danger)}.announcement.success{background:var(--success)}
.announcement a{color:inherit;font-weight:600}
header.site .title img{display:block;height:2rem}
nav.header-links{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
a.header-link,nav.header-links summary{color:var(--header-text);text-decoration:none;padding:.3rem .6rem;border-radius:var(--radius);cursor:pointer}
a.header-link.button-primary{background:var(--primary);color:#fff}
a.header-link.button-secondary{border:1px solid var(--line)}
footer.site{border-top:1px solid var(--line);max-width:84rem;margin:0 auto;padding:1.5rem 1.25rem;font-size:.92rem;color:var(--muted)}
footer.site .groups{display:flex;flex-wrap:wrap;gap:2rem 4rem}
footer.site h2{margin:0 0 .5rem;font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--text)}
footer.site ul{list-style:none;margin:0;padding:0}
footer.site .legal{margin:1.5rem 0 0}
`;

/** The variables of dark mode. */
const DARK = '--text:#e6e6e6;--bg:#111317;--header-bg:#15181d;--header-text:#f0f0f0;--line:#2a2f37;--muted:#9aa3ad;--code-bg:#1b1f26;--primary:var(--primary-dark);--tint:var(--tint-dark);--info:var(--info-dark);--success:var(--success-dark);--warning:var(--warning-dark);--danger:var(--danger-dark);' + LAYOUT_DARK + CODE_DARK + 'color-scheme:dark';

const THEMES: Record<string, { headerBg: string; headerText: string }> = {
  clean: { headerBg: 'var(--bg)', headerText: 'var(--text)' },
  muted: { headerBg: '#f5f6f8', headerText: 'var(--text)' },
  bold: { headerBg: 'var(--primary)', headerText: '#ffffff' },
  gradient: { headerBg: 'linear-gradient(90deg,var(--primary),#7b5cd6)', headerText: '#ffffff' },
};

/** The CSS family names of the fonts the customization names by key. */
const FAMILIES: Readonly<Record<string, string>> = {
  ABCFavorit: 'ABC Favorit', Inter: 'Inter', Roboto: 'Roboto', RobotoSlab: 'Roboto Slab', OpenSans: 'Open Sans', SourceSansPro: 'Source Sans Pro',
  Lato: 'Lato', Ubuntu: 'Ubuntu', Raleway: 'Raleway', Merriweather: 'Merriweather', Overpass: 'Overpass', NotoSans: 'Noto Sans',
  IBMPlexSerif: 'IBM Plex Serif', Poppins: 'Poppins', FiraSans: 'Fira Sans', FiraCode: 'Fira Code', IBMPlexMono: 'IBM Plex Mono',
  JetBrainsMono: 'JetBrains Mono', SourceCodePro: 'Source Code Pro', RobotoMono: 'Roboto Mono', SpaceMono: 'Space Mono', DMMono: 'DM Mono', Inconsolata: 'Inconsolata',
};

const SANS = 'system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif,"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji"';
const MONO = 'ui-monospace,SFMono-Regular,Menlo,Consolas,monospace';

const color = (value: unknown, fallback: string) => (typeof value === 'string' && /^#[0-9a-fA-F]{3,6}$/.test(value) ? value : fallback);

/** A font's family, quoted for CSS: a known key's name, or the family of a font of the site's own (letters, digits, spaces, _ and - kept). */
function family(font: unknown): string | undefined {
  const name = typeof font === 'string' ? FAMILIES[font] : typeof font === 'object' && font !== null ? String((font as { fontFamily?: unknown }).fontFamily ?? '') : undefined;
  const kept = name?.replace(/[^\p{L}\p{N} _-]/gu, '').trim();
  return kept ? `"${kept}",` : undefined;
}

/** A themed color's two variables, light and dark. */
function themed(name: string, value: { light?: unknown; dark?: unknown } | undefined, fallback: string): string {
  const light = color(value?.light, fallback);
  return `--${name}:${light};--${name}-dark:${color(value?.dark, light)};`;
}

/** The site's primary color, light and dark, as its style sheet sets `--primary` (theme-color, layout.ts). */
export function primaryColors(styling: SiteLook['styling']): { light: string; dark: string } {
  const light = color(styling.primaryColor?.light, '#346DDB');
  return { light, dark: color(styling.primaryColor?.dark, light) };
}

/** The rules some settings add. */
function extras(styling: SiteLook['styling']): string {
  const rules: string[] = [];
  if (styling.links === 'accent') rules.push('main a{color:var(--text);text-decoration-color:var(--primary)}');
  if (styling.sidebar.background === 'filled') rules.push('aside.tree{background:var(--tint);padding:.75rem;border-radius:var(--radius);align-self:start}');
  if (styling.sidebar.list === 'pill') rules.push('aside.tree a{border-radius:999px}');
  if (styling.sidebar.list === 'line') rules.push('aside.tree nav ul{border-inline-start:1px solid var(--line)}aside.tree a{border-radius:0;border-inline-start:2px solid transparent}aside.tree a[aria-current=page]{background:none;border-inline-start-color:var(--primary)}');
  if (styling.depth === 'flat') rules.push('details.menu>div,#instant{box-shadow:none}');
  return rules.join('\n');
}

/** The style sheet of a site with this look. */
export function styleSheet(look: Pick<SiteLook, 'styling' | 'mode'>): string {
  const styling = look.styling;
  const theme = THEMES[styling.theme] ?? THEMES.clean;
  const primary = styling.primaryColor;
  const tint = styling.tint?.color ?? primary;
  const font = family(styling.font) ?? '"Inter",';
  const vars = [
    themed('primary', primary, '#346DDB'),
    `--tint:color-mix(in srgb,${color(tint.light, '#346DDB')} 10%,transparent);--tint-dark:color-mix(in srgb,${color(tint.dark, color(tint.light, '#346DDB'))} 18%,transparent);`,
    themed('info', styling.infoColor, '#787878'),
    themed('success', styling.successColor, '#00C950'),
    themed('warning', styling.warningColor, '#FE9A00'),
    themed('danger', styling.dangerColor, '#FB2C36'),
    `--radius:${CORNERS[styling.corners] ?? CORNERS.rounded};`,
    `--font:${font}${SANS};--heading-font:${family(styling.headingFont) ?? font}${SANS};--mono:${family(styling.monospaceFont) ?? ''}${MONO};`,
    `--text:#1d1f23;--bg:#ffffff;--header-bg:${theme.headerBg};--header-text:${theme.headerText};--line:#e3e5e8;--muted:#5f6670;--code-bg:#f4f5f7;${LAYOUT_LIGHT}${CODE_LIGHT}`,
  ].join('');
  const dark = look.mode === 'dark' ? `:root{${DARK}}` : look.mode === 'system' ? `@media (prefers-color-scheme:dark){:root{${DARK}}}` : '';
  return `:root{${vars}}${BASE}${CHROME}${LAYOUT_RULES}${CODE_RULES}${BLOCK_STYLES}${extras(styling)}\n${dark}\n`;
}

/** The style sheet of a page outside any site: the default look. */
export const plainStyleSheet = (): string => styleSheet({ styling: DEFAULT_SETTINGS.styling, mode: 'system' });
