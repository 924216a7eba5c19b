import type { WriteContext } from '../../context.js';
import { ApiError, badRequest } from '../../errors.js';
import { findSpec } from '../../openapi-specs/present.js';
import type { PagePatch, RevisionDraft } from '../draft.js';
import type { PageMeta } from '../markdown.js';
import { documentChars, markdownWork } from '../markdown-work.js';
import type { ComputedSource, FileEntry, LinkTarget, PageEntry } from '../model.js';
import type { PageCover } from '../page-cover.js';
import { linkRewrites, type BatchRefs } from './links.js';
import { pageTextJob, type PageTextInput } from './page-text.js';
import { revertPage } from './revert.js';
import type { StoredFiles } from './files.js';
import type { ContentChangeInput } from './schemas.js';

/** The title of a page inserted with none (no `title`, no frontmatter title, no leading heading). */
export const DEFAULT_PAGE_TITLE = 'Untitled';

/** What a batch did, page by page (each page once, in the order the batch first touched it), and its files. */
export interface BatchOutcome {
  readonly pages: readonly { readonly object: 'created_page' | 'updated_page' | 'deleted_page'; readonly id: string; readonly ref?: string }[];
  readonly insertedFiles: readonly FileEntry[];
}

type InsertChange = Extract<ContentChangeInput, { operation: 'insert_page' }>;
type UpdateChange = Extract<ContentChangeInput, { operation: 'update_page' }>;

/** A body of a change, read: frontmatter fields, leading title, and the Markdown to store (links resolved). */
interface Body {
  readonly meta: PageMeta;
  readonly heading?: string;
  readonly markdown: string;
}

/** Ids for the refs of a batch, given before any change applies so that changes may name later ones. */
function assignRefs(ctx: WriteContext, changes: readonly ContentChangeInput[]): BatchRefs {
  const pages = new Map<string, string>();
  const files = new Map<string, string>();
  const claim = (ref: string, where: string, into: Map<string, string>) => {
    if (pages.has(ref) || files.has(ref)) throw badRequest(`${where}.ref: "${ref}" is used twice in the batch`);
    into.set(ref, ctx.ids.id());
  };
  changes.forEach((change, i) => {
    if (change.operation === 'insert_page' && change.ref !== undefined) claim(change.ref, `changes[${i}]`, pages);
    if (change.operation === 'insert_files') {
      change.files.forEach((file, j) => file.ref !== undefined && claim(file.ref, `changes[${i}].files[${j}]`, files));
    }
  });
  return { pages, files };
}

/**
 * Reads a change's document: Markdown or the JSON document, split as Git Sync does, links resolved. A long
 * body is read off the event loop (markdown-work.ts), and read again with its links' new URLs when some
 * link points at a page or a file of the batch or at a path.
 */
async function readBody(ctx: WriteContext, document: UpdateChange['document'], draft: RevisionDraft, refs: BatchRefs): Promise<Body | undefined> {
  if (document === undefined) return undefined;
  const chars = 'markdown' in document ? document.markdown.length : 'document' in document ? documentChars(document.document) : 0;
  const read = (input: PageTextInput) => markdownWork(ctx.workers, pageTextJob, input, chars);
  const first = await read({ document });
  const rewrite = await linkRewrites(first.urls, draft, refs);
  const { meta, heading, markdown } = rewrite.size === 0 ? first : await read({ document, rewrite });
  return { meta, ...(heading !== undefined && { heading }), markdown };
}

/** The page fields of a change, frontmatter first (it wins, as in Git Sync), then the change's own. */
function fieldsOf(change: InsertChange | UpdateChange, body: Body | undefined) {
  const meta = body?.meta ?? {};
  return {
    title: meta.title ?? body?.heading ?? change.title,
    emoji: meta.emoji ?? change.emoji,
    icon: meta.icon ?? change.icon,
    description: meta.description ?? change.description,
    hidden: meta.hidden ?? change.hidden,
    noIndex: meta.noIndex ?? change.noIndex,
    noRobotsIndex: meta.noRobotsIndex ?? change.noRobotsIndex,
  };
}

/** Where a batch applies: the organization (for computed pages' sources) and the revision revert_page goes back to by default. */
export interface BatchTarget {
  readonly organizationId: string;
  /** The change request's base revision. */
  readonly baseRevision: string;
}

/**
 * Applies the changes of a batch in order to a draft. Any invalid change throws a 400 that names it
 * (`changes[2] (update_page): ...`); the caller's transaction then fails and nothing is stored.
 */
export async function applyBatch(
  ctx: WriteContext,
  draft: RevisionDraft,
  { organizationId, baseRevision }: BatchTarget,
  changes: readonly ContentChangeInput[],
  stored: StoredFiles,
): Promise<BatchOutcome> {
  const refs = assignRefs(ctx, changes);
  const pageId = (idOrRef: string) => refs.pages.get(idOrRef) ?? idOrRef;
  const touched = new Map<string, BatchOutcome['pages'][number]>();
  const touch = (object: 'created_page' | 'updated_page' | 'deleted_page', id: string, ref?: string) => {
    const seen = touched.get(id);
    // A page the batch created stays "created" when it changes again, and is not there at all once deleted.
    if (seen?.object === 'created_page' && object === 'updated_page') return;
    if (seen?.object === 'created_page' && object === 'deleted_page') touched.delete(id);
    // A page the batch deleted and a revert put back was there before the batch: it is updated, at most.
    else if (seen?.object === 'deleted_page' && object === 'created_page') touched.set(id, { object: 'updated_page', id });
    else touched.set(id, { object, id, ...(ref !== undefined && { ref }) });
  };
  const insertedFiles: FileEntry[] = [];
  const linkTarget = (target: LinkTarget | undefined): LinkTarget | undefined =>
    target?.kind === 'page' ? { kind: 'page', page: pageId(target.page) } : target;
  // A cover's file: the ref of a file the batch inserts (wherever in the batch), or the id of a file of the content.
  const coverOf = async (cover: InsertChange['cover']): Promise<PageCover | null | undefined> => {
    if (!cover || cover.ref.kind !== 'file') return cover;
    const batchFile = refs.files.get(cover.ref.file);
    if (batchFile === undefined && !(await draft.file(cover.ref.file))) throw badRequest(`cover.ref.file: no file ${cover.ref.file} in this content`);
    return { ...cover, ref: { kind: 'file', file: batchFile ?? cover.ref.file } };
  };
  const checkSource = async (source: ComputedSource | undefined) => {
    const slug = source?.dependencies.spec.ref.spec;
    if (slug !== undefined && !(await findSpec(ctx, organizationId, slug))) throw badRequest(`computed: no OpenAPI specification ${slug} in this organization`);
  };

  for (const [index, change] of changes.entries()) {
    try {
      switch (change.operation) {
        case 'insert_page': {
          if (change.type === 'document' && change.document === undefined) throw badRequest('document: a document page needs a document ({} for an empty one)');
          if (change.type !== 'document' && change.document !== undefined) throw badRequest(`document: a ${change.type} page has no document`);
          await checkSource(change.computed);
          const body = await readBody(ctx, change.document, draft, refs);
          const fields = fieldsOf(change, body);
          const page: PageEntry = await draft.insertPage(
            {
              ...(change.ref !== undefined && { id: refs.pages.get(change.ref) }),
              type: change.type,
              ...fields,
              title: fields.title ?? DEFAULT_PAGE_TITLE,
              ...(change.slug !== undefined && { slug: change.slug }),
              ...(body && { markdown: body.markdown }),
              ...(change.target && { target: linkTarget(change.target) }),
              ...(change.computed && { computed: change.computed }),
              ...(change.layout && { layout: change.layout }),
              ...(change.cover && { cover: await coverOf(change.cover) }),
            },
            change.into === undefined ? null : pageId(change.into),
            change.at,
          );
          touch('created_page', page.id, change.ref);
          break;
        }
        case 'update_page': {
          const id = pageId(change.page);
          await draft.requirePage(id);
          await checkSource(change.computed);
          const body = await readBody(ctx, change.document, draft, refs);
          const patch: PagePatch = {
            ...fieldsOf(change, body),
            slug: change.slug,
            markdown: body?.markdown,
            target: linkTarget(change.target),
            computed: change.computed,
            layout: change.layout,
            cover: await coverOf(change.cover),
          };
          await draft.updatePage(id, patch);
          if (change.into !== undefined || change.at !== undefined) {
            await draft.movePage(id, change.into === undefined ? undefined : change.into === null ? null : pageId(change.into), change.at);
          }
          touch('updated_page', id);
          break;
        }
        case 'delete_page':
          for (const id of await draft.deletePage(pageId(change.page))) touch('deleted_page', id);
          break;
        case 'revert_page': {
          const request = { page: pageId(change.page), revision: change.revision ?? baseRevision, ...(change.block && { blocks: change.block }) };
          for (const { object, id } of await revertPage(ctx, draft, request)) touch(object, id);
          break;
        }
        case 'insert_files':
          for (const [position, file] of (stored.get(index) ?? []).entries()) {
            const ref = change.files[position].ref;
            const entry: FileEntry = { ...file, id: ref !== undefined ? refs.files.get(ref)! : ctx.ids.id(), createdAt: ctx.now };
            await draft.putFile(entry);
            insertedFiles.push(entry);
          }
          break;
      }
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError(error.status, `changes[${index}] (${change.operation}): ${error.message}`);
      throw error;
    }
  }
  return { pages: [...touched.values()], insertedFiles };
}
