import type { Context } from '../context.js';
import { documentToMarkdown } from '../content/document.js';
import { documentOf } from '../content/document-job.js';
import { normalizeMarkdown } from '../content/markdown.js';
import { assertMarkdownLimits } from '../content/markdown-limits.js';
import { documentChars, markdownWork } from '../content/markdown-work.js';
import { ApiError, badRequest } from '../errors.js';
import { defineJob } from '../job.js';
import { MAX_BODY_LENGTH, type BodyFormat, type BodyValue } from './schemas.js';

/**
 * Comment and reply bodies. They are stored as canonical Markdown, through the project's one Markdown
 * parser (content/markdown.ts), so that `format=markdown` and `format=document` (content/document.ts)
 * say the same thing as the page bodies they sit next to. A long body is read off the event loop
 * (content/markdown-work.ts): 20,000 characters of Markdown, or its JSON document, can take mdast some
 * hundreds of ms.
 */

/** The Markdown a body on write stands for: `{markdown}` normalized, `{document}` converted, `{}` empty. */
export function markdownOfBody(body: BodyValue): string {
  if (body.markdown !== undefined) {
    assertMarkdownLimits(body.markdown, 'body.markdown');
    const stored = normalizeMarkdown(body.markdown);
    // What is stored must read and write back, as a page's body (content/author/page-text.ts).
    assertMarkdownLimits(stored, 'body.markdown (as stored)');
    return stored;
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

/** markdownOfBody as a job. */
export const commentBodyJob = defineJob<BodyValue, string>({ name: 'comment-body', what: 'reading a comment', run: markdownOfBody });

/** The Markdown a body on write stands for (markdownOfBody), read off the event loop when it is long. */
export function readBody(ctx: Pick<Context, 'workers'>, body: BodyValue): Promise<string> {
  const chars = body.markdown !== undefined ? body.markdown.length : documentChars(body.document);
  return markdownWork(ctx.workers, commentBodyJob, body, chars);
}

/** A stored body as a response carries it: `{markdown}` unless `format=document` asks for `{document}`. */
export async function presentBody(ctx: Pick<Context, 'workers'>, markdown: string, format: BodyFormat | undefined) {
  return format === 'document' ? { document: await documentOf(ctx.workers, markdown) } : { markdown };
}
