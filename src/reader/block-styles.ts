/**
 * The rules of GitBook's blocks and of code blocks (blocks.ts, code-block.ts). Every colour is a custom
 * property, its light value set here, so that a dark scheme sets its own: the hint colours are the site's
 * (--info, --success, --warning, --danger), highlighting's are code-theme.ts's, and the line numbers' is --block-line-number.
 */
export const BLOCK_STYLES = `
:root{--block-line-number:#57606a}
.hint{margin:1rem 0;padding:.6rem 1rem;border-inline-start:4px solid var(--hint);border-radius:var(--radius);background:color-mix(in srgb,var(--hint) 10%,transparent)}
.hint-info{--hint:var(--info)}.hint-success{--hint:var(--success)}.hint-warning{--hint:var(--warning)}.hint-danger{--hint:var(--danger)}
.hint>.hint-label{margin:0 0 .2rem;font-weight:700;font-size:.85rem}
.hint>:last-child{margin-bottom:0}
.tabs{display:flex;flex-wrap:wrap;margin:1rem 0;border:1px solid var(--line);border-radius:var(--radius)}
.tabs>.tab-input{position:absolute;opacity:0;width:1px;height:1px}
.tabs>.tab-label{order:0;padding:.45rem .9rem;cursor:pointer;border-bottom:2px solid transparent;color:var(--muted)}
.tabs>.tab-input:checked+.tab-label{color:var(--accent-text);border-bottom-color:var(--primary);font-weight:600}
.tabs>.tab-input:focus-visible+.tab-label{outline:2px solid var(--accent-text);outline-offset:-2px}
.tabs>.tab-panel{order:1;display:none;width:100%;padding:0 1rem;border-top:1px solid var(--line)}
.tabs>.tab-input:checked+.tab-label+.tab-panel{display:block}
details.expandable{margin:1rem 0;border:1px solid var(--line);border-radius:var(--radius);padding:.5rem 1rem}
details.expandable>summary{cursor:pointer;font-weight:600}
.card{margin:1rem 0}
.card>a{display:flex;flex-direction:column;padding:.7rem 1rem;border:1px solid var(--line);border-radius:var(--radius);text-decoration:none;color:var(--text)}
.card>a:hover,.card>a:focus-visible{border-color:var(--primary)}
.card .card-title{font-weight:600;color:var(--accent-text);overflow-wrap:anywhere}
.card .card-detail{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
.card .card-detail:empty{display:none}
.card-caption{font-size:.9rem;color:var(--muted)}
.code-block{margin:1rem 0}
.code-bar{display:flex;align-items:center;gap:.75rem;padding:.3rem .75rem;background:var(--code-bg);border-bottom:1px solid var(--line);border-radius:var(--radius) var(--radius) 0 0;font-size:.8rem;color:var(--muted)}
.code-bar:not(:has(span)):has(button[hidden]){display:none}
.code-bar .code-title{font-weight:600;color:var(--text)}
.code-bar .copy{margin-inline-start:auto;font:inherit;padding:.1rem .5rem;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--text);cursor:pointer}
.code-bar .copy[hidden]{display:none}
.code-block pre.code{margin:0;border-radius:0 0 var(--radius) var(--radius)}
.code-bar:not(:has(span)):has(button[hidden])+pre.code{border-radius:var(--radius)}
pre{tab-size:4;-moz-tab-size:4}
.code-block[data-wrap] pre.code{white-space:pre-wrap;overflow-wrap:anywhere}
.code-block[data-line-numbers] code{counter-reset:line}
.code-block[data-line-numbers] .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;margin-inline-end:1em;text-align:end;color:var(--block-line-number);user-select:none}
.hljs-meta.prompt_{user-select:none}
`;
