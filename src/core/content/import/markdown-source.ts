import { badRequest } from '../../errors.js';
import type { FetchedBytes } from '../../fetch-bytes.js';
import { isHtmlType, isUntypedText, opensAsHtmlDocument, sourceText } from './fetch-source.js';
import { absoluteAgainst, importedMarkdown, titleOfName } from './page-body.js';
import type { UnsettledPlan } from './local-ids.js';

/** Media types a Markdown file is served with, besides the untyped ones. */
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/x-web-markdown', 'application/markdown', 'application/x-markdown']);

/** The last segment of a URL's path, decoded (`.../guides/setup.md` → `setup.md`); undefined for none. */
export function nameInUrl(url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').filter(Boolean).pop();
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Plans the import of one Markdown document as one page. The answer must be text served as Markdown, as
 * plain text or untyped, and not an HTML page (a 400 suggests `html`/`website` then). Relative links and
 * images are made absolute against the URL, so they still point where they did.
 */
export function planMarkdown(newId: () => string, url: string, fetched: FetchedBytes): UnsettledPlan {
  const type = fetched.contentType;
  if (isHtmlType(type)) throw badRequest(`url: ${url} is an HTML page, not Markdown: import it with source "html" or "website"`);
  if (!isUntypedText(type) && !MARKDOWN_TYPES.has(type!)) {
    throw badRequest(`url: ${url} is not Markdown: it answered ${type}`);
  }
  const text = sourceText(url, fetched, 'Markdown');
  if (opensAsHtmlDocument(text)) throw badRequest(`url: ${url} is an HTML page, not Markdown: import it with source "html" or "website"`);
  const body = importedMarkdown(text, `url: ${url}`, [titleOfName(nameInUrl(url) ?? '')], absoluteAgainst(url));
  return { pages: [{ id: newId(), type: 'document', ...body, pages: [] }], files: [], skipped: 0 };
}
