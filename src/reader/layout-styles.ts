/**
 * The rules of the reader's layout that make it work on phones, by keyboard and right to left: the skip
 * link, the sticky header and sidebar, the menu button that shows the page tree on a narrow screen (a
 * checkbox and its label: no script needed), the focus ring of regions that scroll, breadcrumbs, the
 * last-updated date, and the outline's current section. Every side is a logical property (inline-start,
 * inline-end), so a right-to-left page mirrors. Colors of text on the site's primary color are mixed
 * with the text color, so that they keep 4.5:1 in light and dark mode.
 */

/** The light values of the layout's variables. */
export const LAYOUT_LIGHT = '--header-h:4rem;--accent-text:var(--primary);--current-text:color-mix(in srgb,var(--primary) 75%,var(--text));';

/** The dark values. */
export const LAYOUT_DARK = '--accent-text:color-mix(in srgb,var(--primary) 60%,var(--text));--current-text:var(--accent-text);';

/** The rules. */
export const LAYOUT_RULES = `
.skip-link{position:absolute;inset-inline-start:.75rem;top:-4rem;z-index:50;padding:.5rem .9rem;background:var(--bg);color:var(--accent-text);border:2px solid var(--accent-text);border-radius:var(--radius);font-weight:600}
.skip-link:focus{top:.5rem}
header.site{position:sticky;top:0;z-index:20}
main h2,main h3,main h4{scroll-margin-top:calc(var(--header-h) + 1rem)}
:focus-visible{outline:2px solid var(--accent-text);outline-offset:2px}
.menu-toggle,.menu-button{display:none}
pre.code:focus-visible,.table:focus-visible{outline:2px solid var(--accent-text);outline-offset:2px}
nav.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem .4rem;margin:0 0 .25rem;padding:0;font-size:.88rem;color:var(--muted)}
nav.breadcrumbs li+li::before{content:'/';margin-inline-end:.4rem}
nav.breadcrumbs a{color:var(--muted)}
.last-updated{margin:2.5rem 0 0;font-size:.88rem;color:var(--muted)}
aside.outline a[aria-current]{color:var(--accent-text);font-weight:600}
[dir=rtl] aside.tree li.folded>a::after{content:' ‹'}
@media (min-width:721px){aside.tree{position:sticky;top:calc(var(--header-h) + 1rem);align-self:start;max-height:calc(100vh - var(--header-h) - 2rem);overflow-y:auto}aside.outline ul{top:calc(var(--header-h) + 1rem);max-height:calc(100vh - var(--header-h) - 2rem);overflow-y:auto}}
@media (max-width:720px){
.menu-toggle{display:block;position:absolute;width:1px;height:1px;margin:0;opacity:0;pointer-events:none}
.menu-button{display:inline-flex;align-items:center;gap:.4rem;padding:.3rem .7rem;border:1px solid var(--line);border-radius:var(--radius);color:var(--header-text);cursor:pointer}
.menu-toggle:focus-visible~header.site .menu-button{outline:2px solid var(--accent-text);outline-offset:2px}
aside.tree{display:none}
.menu-toggle:checked~.layout aside.tree{display:block}
.menu-toggle:checked~header.site .menu-button{background:var(--tint)}
}
`;
