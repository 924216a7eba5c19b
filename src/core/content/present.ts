import type * as v from 'valibot';
import type { Context } from '../context.js';
import { TABLES, type ContentDocumentRecord } from '../records.js';
import { computeContent } from './computed.js';
import { markdownToDocument } from './document.js';
import { downloadUrl } from './downloads.js';
import { gitFilePath, gitPagePath } from './git.js';
import type { FileEntry, PageEntry, PageNode } from './model.js';
import { readMarkdown } from './revision.js';
import type { RevisionFileSchema, RevisionPageSchema } from './schemas.js';
import type { ContentTarget } from './target.js';

/** A page in responses. */
export type PageOutput = v.InferInput<typeof RevisionPageSchema>;
/** A file in responses. */
export type FileOutput = v.InferInput<typeof RevisionFileSchema>;

/** How content is shown: with Git metadata or not, computed pages expanded or not, and a page's body format. */
export interface ContentOptions {
  readonly metadata: boolean;
  readonly computed: boolean;
}

/** The Git blob id of an empty file: the `git.oid` of a page without a body. */
const EMPTY_BLOB_OID = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';

/** Pages have no layout settings of their own here: every page shows everything but a cover. */
const LAYOUT = { cover: false, title: true, description: true, tableOfContents: true, outline: true, pagination: true };

/** The app URL of a page of a target. */
export const pageAppUrl = (ctx: Context, target: ContentTarget, page: PageEntry) => ctx.urls.app(`${target.appPath}/${page.path}`);

/** Looks up a page of the same revision by id (to resolve where a link page points). */
export type PageLookup = (id: string) => Promise<PageEntry | undefined>;

/** The body of a one-page read, in the asked format. */
export type PageBody = { readonly markdown: string } | { readonly document: ReturnType<typeof markdownToDocument> };

/**
 * The body of a page in a format: Markdown as stored (or generated, for a computed page expanded with
 * `computed`), or the JSON document made from it.
 */
export async function pageBody(ctx: Context, target: ContentTarget, page: PageEntry, format: 'markdown' | 'document', computed: boolean): Promise<PageBody> {
  const markdown =
    page.type === 'computed' && computed ? (await computeContent(ctx, target.access.space.organizationId, page.computed!)).markdown : await readMarkdown(ctx.tx, page);
  return format === 'markdown' ? { markdown } : { document: markdownToDocument(markdown) };
}

const common = (page: PageEntry) => ({
  id: page.id,
  title: page.title,
  ...(page.emoji !== undefined && { emoji: page.emoji }),
  ...(page.icon !== undefined && { icon: page.icon }),
  createdAt: page.createdAt,
  updatedAt: page.updatedAt,
});

const flagsOf = (page: PageEntry) => ({ hidden: page.hidden === true, noIndex: page.noIndex === true, noRobotsIndex: page.noRobotsIndex === true });

/**
 * A page in responses, with its subpages (`children`, already presented) and, for a one-page read, its
 * body. Documents and groups always carry `pages` (`[]` when they have none). Lists of pages carry no
 * bodies: `documentId` names the body instead.
 */
export async function presentPage(
  ctx: Context,
  target: ContentTarget,
  page: PageEntry,
  children: PageOutput[],
  options: ContentOptions & { readonly body?: PageBody; readonly lookup: PageLookup },
): Promise<PageOutput> {
  switch (page.type) {
    case 'group':
      return { ...common(page), type: 'group', slug: page.slug, path: page.path, pages: children, ...flagsOf(page) };
    case 'link': {
      const target_ = page.target!;
      let href = target_.kind === 'url' ? target_.url : ctx.urls.app(`${target.appPath}/pages/${target_.page}`);
      if (target_.kind === 'page') {
        const linked = await options.lookup(target_.page);
        if (linked) href = pageAppUrl(ctx, target, linked);
      }
      return { ...common(page), type: 'link', target: target_, href, hidden: page.hidden === true };
    }
    case 'computed': {
      if (!options.computed) {
        return { ...common(page), type: 'computed', slug: page.slug, path: page.path, computed: page.computed!, hidden: page.hidden === true };
      }
      // Expanded: the document the source generates, marked with the source and the version it came from.
      const { seed } = await computeContent(ctx, target.access.space.organizationId, page.computed!);
      return {
        ...common(page),
        type: 'document',
        urls: { app: pageAppUrl(ctx, target, page) },
        slug: page.slug,
        path: page.path,
        ...(page.description !== undefined && { description: page.description }),
        pages: children,
        layout: LAYOUT,
        ...flagsOf(page),
        computed: page.computed!,
        computedSeed: seed,
        ...options.body,
      };
    }
    default: {
      let git: { oid: string; path: string } | undefined;
      if (options.metadata) {
        const document = page.document === undefined ? undefined : ((await ctx.tx.get(TABLES.contentDocuments, page.document)) as ContentDocumentRecord | undefined);
        git = { oid: document?.gitOid ?? EMPTY_BLOB_OID, path: gitPagePath(page, children.length > 0) };
      }
      return {
        ...common(page),
        type: 'document',
        urls: { app: pageAppUrl(ctx, target, page) },
        slug: page.slug,
        path: page.path,
        ...(page.description !== undefined && { description: page.description }),
        ...(page.document !== undefined && { documentId: page.document }),
        pages: children,
        ...(git && { git }),
        layout: LAYOUT,
        ...flagsOf(page),
        ...options.body,
      };
    }
  }
}

/** A page tree (materialized) in responses, depth first, without bodies. */
export async function presentTree(
  ctx: Context,
  target: ContentTarget,
  nodes: readonly PageNode[],
  options: ContentOptions & { readonly lookup: PageLookup },
): Promise<PageOutput[]> {
  const out: PageOutput[] = [];
  for (const node of nodes) out.push(await presentPage(ctx, target, node, await presentTree(ctx, target, node.pages, options), options));
  return out;
}

/** A file in responses, with its signed download URL. */
export async function presentFile(ctx: Context, file: FileEntry, options: Pick<ContentOptions, 'metadata'>): Promise<FileOutput> {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: await downloadUrl(ctx, { digest: file.digest, contentType: file.contentType, name: file.name }),
    size: file.size,
    ...(file.dimensions && { dimensions: { ...file.dimensions } }),
    ...(options.metadata && { git: { oid: file.gitOid, path: gitFilePath(file.name) } }),
  };
}
