import type * as v from 'valibot';
import type { Context } from '../context.js';
import { TABLES, type ContentDocumentRecord } from '../records.js';
import { computeContent, computedSeed } from './computed.js';
import { documentOf } from './document-job.js';
import { downloadUrl } from './downloads.js';
import { gitFilePath, gitPagePath } from './git.js';
import { pageMarkdownAsRead } from './markdown.js';
import { layoutOf } from './page-layout.js';
import type { FileEntry, PageEntry, PageNode } from './model.js';
import { readDocument } from './revision.js';
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
  /** The `git.path` of pages and files the space's Git sync placed (content/git.ts: syncedGitPaths), by id. */
  readonly gitPaths?: Readonly<Record<string, string>>;
}

/** The Git blob id of an empty file: the `git.oid` of a page without a body. */
const EMPTY_BLOB_OID = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';


/** The app URL of a page of a target. */
export const pageAppUrl = (ctx: Context, target: ContentTarget, page: PageEntry) => ctx.urls.app(`${target.appPath}/${page.path}`);

/** Looks up a page of the same revision by id (to resolve where a link page points). */
export type PageLookup = (id: string) => Promise<PageEntry | undefined>;

/** The format of a one-page read's body. */
export type BodyFormat = 'markdown' | 'document';

/**
 * A body in a format: Markdown as it reads (for a document page, what writes back to the same page), or the
 * JSON document made from it (off the event loop when it is long).
 */
const bodyIn = async (ctx: Context, format: BodyFormat | undefined, markdown: string, title?: string) =>
  format === undefined
    ? undefined
    : format === 'markdown'
      ? { markdown: title === undefined ? markdown : pageMarkdownAsRead(markdown, title) }
      : { document: await documentOf(ctx.workers, markdown) };

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
 * A page in responses, with its subpages (`children`, already presented) and, for a one-page read
 * (`format`), the body of a document or an expanded computed page. Documents and groups always carry
 * `pages` (`[]` when they have none). Lists of pages carry no bodies: `documentId` names the body instead.
 */
export async function presentPage(
  ctx: Context,
  target: ContentTarget,
  page: PageEntry,
  children: PageOutput[],
  options: ContentOptions & { readonly format?: BodyFormat; readonly lookup: PageLookup },
): Promise<PageOutput> {
  switch (page.type) {
    case 'group':
      return { ...common(page), kind: 'group', type: 'group', slug: page.slug, path: page.path, pages: children, ...flagsOf(page) };
    case 'link': {
      const target_ = page.target!;
      let href = target_.kind === 'url' ? target_.url : ctx.urls.app(`${target.appPath}/pages/${target_.page}`);
      if (target_.kind === 'page') {
        const linked = await options.lookup(target_.page);
        if (linked) href = pageAppUrl(ctx, target, linked);
      }
      return { ...common(page), kind: 'link', type: 'link', target: target_, href, hidden: page.hidden === true };
    }
    case 'computed': {
      if (!options.computed) {
        return { ...common(page), type: 'computed', slug: page.slug, path: page.path, computed: page.computed!, hidden: page.hidden === true };
      }
      // Expanded: the document the source generates, marked with the source and the version it came from.
      // Only a one-page read shows the generated body; a list needs only the version, not the generating.
      const organizationId = target.access.space.organizationId;
      const content = options.format === undefined ? undefined : await computeContent(ctx, organizationId, page.computed!);
      const seed = content?.seed ?? (await computedSeed(ctx, organizationId, page.computed!));
      return {
        ...common(page),
        kind: 'sheet',
        type: 'document',
        urls: { app: pageAppUrl(ctx, target, page) },
        slug: page.slug,
        path: page.path,
        ...(page.description !== undefined && { description: page.description }),
        pages: children,
        layout: layoutOf(page.layout),
        ...(page.cover && { cover: page.cover }),
        ...flagsOf(page),
        tags: [],
        computed: page.computed!,
        computedSeed: seed,
        ...(content && (await bodyIn(ctx, options.format, content.markdown))),
      };
    }
    default: {
      // One read of the stored body serves both the body of a one-page read and the Git metadata.
      const document =
        options.format !== undefined
          ? await readDocument(ctx.tx, page)
          : options.metadata && page.document !== undefined
            ? ((await ctx.tx.get(TABLES.contentDocuments, page.document)) as ContentDocumentRecord | undefined)
            : undefined;
      const git = options.metadata ? { oid: document?.gitOid ?? EMPTY_BLOB_OID, path: options.gitPaths?.[page.id] ?? gitPagePath(page, children.length > 0) } : undefined;
      return {
        ...common(page),
        kind: 'sheet',
        type: 'document',
        urls: { app: pageAppUrl(ctx, target, page) },
        slug: page.slug,
        path: page.path,
        ...(page.description !== undefined && { description: page.description }),
        ...(page.document !== undefined && { documentId: page.document }),
        pages: children,
        ...(git && { git }),
        layout: layoutOf(page.layout),
        ...(page.cover && { cover: page.cover }),
        ...flagsOf(page),
        tags: [],
        ...(await bodyIn(ctx, options.format, document?.markdown ?? '', page.title)),
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
export async function presentFile(ctx: Context, file: FileEntry, options: Pick<ContentOptions, 'metadata' | 'gitPaths'>): Promise<FileOutput> {
  return {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: await downloadUrl(ctx, { digest: file.digest, contentType: file.contentType, name: file.name }),
    size: file.size,
    ...(file.dimensions && { dimensions: { ...file.dimensions } }),
    ...(options.metadata && { git: { oid: file.gitOid, path: options.gitPaths?.[file.id] ?? gitFilePath(file.name) } }),
  };
}
