/**
 * The rules of computed OpenAPI pages (api-reference.ts): method and status colours, badges, the fields of
 * a schema as an indented list, and boxes that scroll on their own on a phone. Coloured text takes its
 * light or dark form by the page's color-scheme (light-dark(), which the dark look sets), each with a
 * contrast of at least 4.5:1 on its background.
 */
export const API_STYLES = `
.api .operation{border-top:1px solid var(--line);margin-top:2.5rem;padding-top:.5rem}
.api .operation.deprecated h2 code{text-decoration:line-through}
.api .method{display:inline-block;min-width:3.6rem;padding:.05rem .4rem;border-radius:4px;font:600 .78em var(--mono);text-align:center;color:#fff;background:#4b5563;vertical-align:middle}
.api .method.get{background:#1a7f37}.api .method.post{background:#0757ba}.api .method.put{background:#8a4b00}.api .method.patch{background:#6d3fc0}.api .method.delete{background:#b42318}
.api .endpoint{margin:.5rem 0;padding:.4rem .6rem;background:var(--code-bg);border-radius:var(--radius);overflow-wrap:anywhere}
.api .badge{display:inline-block;margin-inline-start:.3rem;padding:0 .35rem;border:1px solid var(--line);border-radius:4px;font-size:.75rem;font-weight:600;color:var(--muted);vertical-align:middle}
.api .badge.required{color:light-dark(#b42318,#ff7b72);border-color:currentColor}
.api .badge.deprecated{color:light-dark(#8a4b00,#f0b400);border-color:currentColor}
.api .muted,.api .cut{color:var(--muted);font-size:.9rem}
.api .type{font-family:var(--mono);font-size:.85em;color:var(--muted)}
.api .limits span{display:inline-block;margin-block-start:.15rem;margin-inline-end:.3rem;padding:0 .35rem;border-radius:4px;background:var(--code-bg);font-size:.8rem}
.api .values{font-size:.88rem;margin-top:.15rem}
.api ul.schema{list-style:none;margin:.3rem 0;padding-inline-start:.9rem;border-inline-start:1px solid var(--line)}
.api li.field{margin:.45rem 0}
.api .api-prose>:first-child{margin-top:.15rem}.api .api-prose>:last-child{margin-bottom:.15rem}
.api details>summary{cursor:pointer;color:var(--accent-text,var(--primary));font-size:.9rem}
.api details.response{margin:.5rem 0;padding:.4rem .6rem;border:1px solid var(--line);border-radius:var(--radius)}
.api details.response>summary{color:var(--text);font-size:1rem}
.api .status{font-weight:700}.api .status.s2xx{color:light-dark(#1a7f37,#4ac26b)}.api .status.s4xx,.api .status.s5xx{color:light-dark(#b42318,#ff7b72)}
.api .media-type{margin:.6rem 0 .2rem}
.api .schema-type{font-family:var(--mono);font-size:.85rem;color:var(--muted)}
.api .composition-kind{font-weight:600;font-size:.9rem;margin-top:.4rem}
.api details.variant{margin-block:.2rem;margin-inline-start:.9rem}
.api table.parameters td{vertical-align:top}
.api .table{max-width:100%}
@media (max-width:720px){.api .table{margin:0 -1rem;padding:0 1rem}.api ul.schema{padding-inline-start:.6rem}}
`;
