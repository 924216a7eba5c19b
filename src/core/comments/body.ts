import { documentToMarkdown, markdownToDocument } from '../content/document.js';
import { normalizeMarkdown } from '../content/markdown.js';
import { assertMarkdownLimits } from '../content/markdown-limits.js';
import { ApiError, badRequest } from '../errors.js';
import { MAX_BODY_LENGTH, type BodyFormat, type BodyValue } from './schemas.js';

/**
 * Comment and reply bodies. They are stored as canonical Markdown, through the project's one Markdown
 * parser (content/markdown.ts), so that `format=markdown` and `format=document` (content/document.ts)
 * say the same thing as the page bodies they sit next to.
 */

/** The Markdown a body on write stands for: `{markdown}` normalized, `{document}` converted, `{}` empty. */
export function markdownOfBody(body: BodyValue): string {
  if (body.markdown !== undefined) {
    assertMarkdownLimits(body.markdown, 'body.markdown');
    return normalizeMarkdown(body.markdown);
  }
  if (body.document === undefined) return '';
  let markdown: string;
  try {
    markdown = documentToMarkdown(body.document);
  } catch (error) {
    // The converter names the node from the document's root; the client sent it as `body.document`.
    if (error instanceof ApiError && error.status === 400) throw badRequest(`body.${error.message}`);
    throw error;
  }
  if (markdown.length > MAX_BODY_LENGTH) throw badRequest(`body.document: must be at most ${MAX_BODY_LENGTH} characters as Markdown`);
  assertMarkdownLimits(markdown, 'body.document (as Markdown)');
  return markdown;
}

/** A stored body as a response carries it: `{markdown}` unless `format=document` asks for `{document}`. */
export function presentBody(markdown: string, format: BodyFormat | undefined) {
  return format === 'document' ? { document: markdownToDocument(markdown) } : { markdown };
}
