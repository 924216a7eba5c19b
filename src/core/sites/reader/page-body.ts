import type { Context } from '../../context.js';
import { computeContent, computedSeed } from '../../content/computed.js';
import { refOfUrl } from '../../content/document.js';
import { downloadUrl } from '../../content/downloads.js';
import type { ApiReference } from '../../content/api-reference/model.js';
import { referenceTexts } from '../../content/api-reference/reference-texts.js';
import { boundedOff } from '../../content/bounded-job.js';
import { isOpenableUrl } from '../../content/openable-url.js';
import { outlineOff } from '../../content/outline-job.js';
import type { StoredBody } from '../../content/read-bodies-job.js';
import { pause } from '../../pause.js';
import { readFile, readMarkdown, readPage } from '../../content/revision.js';
import type { RevisionRecord } from '../../records.js';
import type { Navigation, ReadablePage } from './navigation.js';

/**
 * A page's body as readers get it: its Markdown (a computed page's generated Markdown), the anchors of its
 * headings, and where every URL written in it leads: a page of the space to its published URL, a file to
 * its download URL, an anchor of the page itself as it is, an http, https or mailto URL as it is; anything
 * else (`javascript:`, `data:`, a page or file that is not there, a relative path) to null, which the reader
 * shows as text. Made once per revision, page and site space URLs (ctx.derived).
 */

/** A page body for readers. */
export interface ReaderBody {
  readonly markdown: string;
  /** A computed OpenAPI page's page model, which the reader shows instead of its Markdown. */
  readonly reference?: ApiReference;
  readonly anchors: readonly string[];
  readonly links: Readonly<Record<string, string | null>>;
  /** The title of each readable page a URL of the body names (`/pages/<id>`), for the cards of content references. */
  readonly pageTitles: Readonly<Record<string, string>>;
  /** The width and height of each image file a URL of the body names, as stored with the file, so the reader sizes it before it loads. */
  readonly imageSizes: Readonly<Record<string, { readonly width: number; readonly height: number }>>;
  /** The plain text of its first paragraph (outline.ts), for a page without a description. */
  readonly firstParagraph?: string;
  /** What the body comes from: the stored document, or a computed page's specification version. */
  readonly source: string;
}

/** How many URLs of a body are resolved between two pauses. */
const URLS_PER_SLICE = 2000;

async function resolveLinks(ctx: Context, revision: RevisionRecord, navigation: Navigation, urls: readonly string[]) {
  const links: Record<string, string | null> = Object.create(null);
  const pageTitles: Record<string, string> = Object.create(null);
  const imageSizes: Record<string, { width: number; height: number }> = Object.create(null);
  let resolved = 0;
  for (const url of urls) {
    // In slices: a long body names 20,000 URLs, and a store that answers from memory never yields by itself.
    if (++resolved % URLS_PER_SLICE === 0) await pause();
    const ref = refOfUrl(url);
    switch (ref.kind) {
      case 'page': {
        links[url] = navigation.urls.get(ref.page) ?? null;
        const page = links[url] === null ? undefined : await readPage(ctx.tx, revision, ref.page);
        if (page) pageTitles[url] = page.title;
        break;
      }
      case 'anchor': {
        const page = ref.page === undefined ? '' : navigation.urls.get(ref.page);
        links[url] = page === undefined ? null : `${page}#${encodeURIComponent(ref.anchor)}`;
        break;
      }
      case 'file': {
        const file = await readFile(ctx.tx, revision, ref.file);
        links[url] = file ? await downloadUrl(ctx, { digest: file.digest, contentType: file.contentType, name: file.name }) : null;
        if (file?.dimensions) imageSizes[url] = { width: file.dimensions.width, height: file.dimensions.height };
        break;
      }
      default:
        links[url] = isOpenableUrl(url) ? url : null;
    }
  }
  return { links, pageTitles, imageSizes };
}

/**
 * The body of a readable page of a revision of a space of `organizationId`, under the URLs of a navigation.
 * `read` is its stored body and that body's outline when the caller read them already (read-bodies-job.ts,
 * for many pages at once): the store is not asked again, nor the body parsed.
 */
export async function readerBody(
  ctx: Context,
  organizationId: string,
  revision: RevisionRecord,
  navigation: Navigation,
  page: ReadablePage,
  read?: Pick<StoredBody, 'stored' | 'outline'>,
): Promise<ReaderBody> {
  // A computed page's content follows its specification's latest version, which the revision does not fix.
  const source = page.type === 'computed' ? `computed:${await computedSeed(ctx, organizationId, page.computed!)}` : `document:${page.document ?? ''}`;
  return ctx.derived.get(`reader-body\u0000${navigation.key}\u0000${page.id}\u0000${source}`, revision.id, async () => {
    const computed = page.type === 'computed' ? await computeContent(ctx, organizationId, page.computed!) : undefined;
    const stored = computed ? computed.markdown : (read?.stored ?? (await readMarkdown(ctx.tx, page)));
    // What the reader renders is what the outline read: a body stored before the depth limit shows its
    // deep lines as code (markdown-limits.ts), and its headings still meet their anchors. The bounding
    // scan reads 1 MiB in a few hundred ms, so it is done where the body is parsed: by the outline (off
    // the event loop for a long body), which hands the bounded text back when it differs.
    const reference = computed?.reference;
    if (reference) {
      const markdown = await boundedOff(ctx.workers, stored);
      // The reader shows the page model, whose descriptions it renders one by one: their links are read the
      // same way, and its headings are the operations'. (Reading the outline of the whole generated Markdown,
      // a megabyte for a large API, would be work for nothing.)
      const urls = new Set<string>();
      for (const text of referenceTexts(reference)) for (const url of (await outlineOff(ctx.workers, text)).urls) urls.add(url);
      const anchors = reference.operations.map((operation) => operation.anchor);
      return { markdown, reference, anchors, ...(await resolveLinks(ctx, revision, navigation, [...urls])), source };
    }
    const outline = read?.outline ?? (await outlineOff(ctx.workers, stored));
    const markdown = outline.bounded ?? stored;
    const first = outline.firstParagraph;
    return { markdown, anchors: outline.anchors, ...(await resolveLinks(ctx, revision, navigation, outline.urls)), ...(first !== undefined && { firstParagraph: first }), source };
  });
}
