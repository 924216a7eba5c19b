import type { Context } from '../../context.js';
import { refOfUrl } from '../../content/document.js';
import type { StoredBody } from '../../content/read-bodies-job.js';
import { rewriteUrlsOff, spliceUrls } from '../../content/rewrite-urls.js';
import type { RevisionRecord } from '../../records.js';
import { markdownUrlOf } from './ai-paths.js';
import type { Navigation, ReadablePage } from './navigation.js';
import { readerBody } from './page-body.js';

/**
 * A page as Markdown, for AI tools (its `.md` URL, llms-full.txt, the site's MCP server): `# Title`, its
 * description, then its body as stored (a computed page's generated Markdown), GitBook's blocks kept as
 * written. Links to pages lead to their published `.md` URLs, links to files to their download URLs; any
 * other URL stays as written. Made once per revision, page and site space URLs (ctx.derived).
 */

/**
 * The Markdown of a readable page of a revision of a space of `organizationId`, under the URLs of a
 * navigation; its links to pages carry `query` (shareQueryOf: the visitor's share key, or ''). `read` is its
 * stored body as the caller read it already (read-bodies-job.ts), so that nothing here reads or parses it again.
 */
export async function pageMarkdown(ctx: Context, organizationId: string, revision: RevisionRecord, navigation: Navigation, page: ReadablePage, query = '', read?: StoredBody): Promise<string> {
  const body = await readerBody(ctx, organizationId, revision, navigation, page, read);
  return ctx.derived.get(`reader-markdown\u0000${navigation.key}\u0000${page.id}\u0000${body.source}\u0000${query}`, revision.id, async () => {
    const rewritten = (url: string): string | undefined => {
      const ref = refOfUrl(url);
      if (ref.kind === 'file') return body.links[url] ?? undefined;
      if (ref.kind !== 'page' && !(ref.kind === 'anchor' && ref.page !== undefined)) return undefined;
      const target = navigation.urls.get(ref.page!);
      if (target === undefined) return undefined;
      return ref.kind === 'anchor' ? `${markdownUrlOf(target, query)}#${encodeURIComponent(ref.anchor)}` : markdownUrlOf(target, query);
    };
    const urls: Record<string, string> = Object.create(null);
    for (const url of Object.keys(body.links)) {
      const target = rewritten(url);
      if (target !== undefined) urls[url] = target;
    }
    // Only a body that links a page or a file is parsed, off the event loop when it is long (markdown-work.ts);
    // one read already knows where its URLs are written.
    const lookup = (url: string) => (Object.hasOwn(urls, url) ? urls[url] : undefined);
    const text = Object.keys(urls).length === 0 ? body.markdown : read ? spliceUrls(body.markdown, read.spans, lookup) : await rewriteUrlsOff(ctx.workers, { markdown: body.markdown, urls });
    const head = `# ${page.title}\n\n${page.description !== undefined && page.description !== '' ? `${page.description}\n\n` : ''}`;
    return `${head}${text.trimEnd()}\n`;
  });
}
