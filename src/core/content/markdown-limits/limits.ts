/** The limits of ../markdown-limits.ts (see its module comment). */

/** The deepest a body may nest (see the module comment). */
export const MAX_MARKDOWN_DEPTH = 32;

/**
 * The most delimiters one paragraph (a heading, a table row) may hold that mdast pairs by walking back:
 * runs of `*`, `_` and `~` that may open or close emphasis or strikethrough, and closing brackets `]`.
 */
export const MAX_PARAGRAPH_DELIMITERS = 256;
