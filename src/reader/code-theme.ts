/**
 * The colors of highlighted code (highlight.js's classes), light and dark, as CSS custom properties: the
 * style sheet sets the light values on :root and the dark ones where dark mode applies, so that every
 * color keeps at least 4.5:1 against the code background in both (GitHub's palettes, the light comment
 * and title darkened to reach it).
 */

/** The light colors. */
export const CODE_LIGHT =
  '--hl-keyword:#cf222e;--hl-title:#6639ba;--hl-constant:#0550ae;--hl-string:#0a3069;--hl-builtin:#953800;--hl-comment:#57606a;' +
  '--hl-tag:#116329;--hl-bullet:#953800;--hl-section:#0550ae;--hl-add:#116329;--hl-add-bg:#dafbe1;--hl-del:#82071e;--hl-del-bg:#ffebe9;';

/** The dark colors. */
export const CODE_DARK =
  '--hl-keyword:#ff7b72;--hl-title:#d2a8ff;--hl-constant:#79c0ff;--hl-string:#a5d6ff;--hl-builtin:#ffa657;--hl-comment:#8b949e;' +
  '--hl-tag:#7ee787;--hl-bullet:#f2cc60;--hl-section:#79c0ff;--hl-add:#aff5b4;--hl-add-bg:#033a16;--hl-del:#ffdcd7;--hl-del-bg:#67060c;' +
  // Code blocks' line numbers (block-styles.ts sets the light value).
  '--block-line-number:#8b949e;';

/** The rules that give each class its color. */
export const CODE_RULES = `
.hljs-keyword,.hljs-doctag,.hljs-template-tag,.hljs-template-variable,.hljs-type,.hljs-variable.language_{color:var(--hl-keyword)}
.hljs-title,.hljs-title.class_,.hljs-title.function_{color:var(--hl-title)}
.hljs-attr,.hljs-attribute,.hljs-literal,.hljs-meta,.hljs-number,.hljs-operator,.hljs-variable,.hljs-selector-attr,.hljs-selector-class,.hljs-selector-id,.hljs-property,.hljs-params{color:var(--hl-constant)}
.hljs-string,.hljs-regexp,.hljs-meta .hljs-string{color:var(--hl-string)}
.hljs-built_in,.hljs-symbol{color:var(--hl-builtin)}
.hljs-comment,.hljs-code,.hljs-formula{color:var(--hl-comment);font-style:italic}
.hljs-name,.hljs-quote,.hljs-selector-tag,.hljs-selector-pseudo,.hljs-tag{color:var(--hl-tag)}
.hljs-section{color:var(--hl-section);font-weight:700}
.hljs-bullet{color:var(--hl-bullet)}
.hljs-emphasis{font-style:italic}.hljs-strong{font-weight:700}
.hljs-addition{color:var(--hl-add);background:var(--hl-add-bg)}
.hljs-deletion{color:var(--hl-del);background:var(--hl-del-bg)}
`;
