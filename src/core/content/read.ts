import * as v from 'valibot';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { readOperation, type CallerInputOf, type Entries, type InputOf, type Operation } from '../operation.js';
import { DEFAULT_LIMIT, encodeCursor, decodeCursor, listQuery, type Page } from '../pagination.js';
import { Id } from '../schemas.js';
import { readMap } from './btree.js';
import type { FileEntry, PageEntry, PageTree } from './model.js';
import { presentFile, presentPage, presentTree, type BodyFormat, type ContentOptions, type FileOutput, type PageOutput } from './present.js';
import { syncedGitPaths } from './git.js';
import { readChildren, readFile, readPage, readPageByPath, readPageTree } from './revision.js';
import { ContentQuery, FileList, PageListSchema, PageQuery, PathPageSchema, RevisionFileSchema, RevisionPageSchema, RevisionSchema } from './schemas.js';
import { changeRequestContent, revisionContent, spaceContent, type ContentTarget } from './target.js';

/**
 * Reading content: the same six reads for a space (its current revision) and for a change request (its
 * revision), with the same queries and responses. Each pair is made by `twins` from one definition.
 */

/** A page's id in a path. */
const PageId = Id;
/** A page's path in a path (percent-encode its slashes: `guides%2Fsetup`); a leading or trailing `/` is ignored. */
const PagePath = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(2000, 'must be at most 2000 characters'));

interface TwinDefinition<P extends Entries, Q extends Entries, R extends v.GenericSchema> {
  readonly space: readonly [name: string, summary: string];
  readonly changeRequest: readonly [name: string, summary: string];
  readonly params: P;
  readonly query: Q;
  readonly response: R;
  readonly run: (ctx: Context, target: ContentTarget, input: any) => Promise<v.InferInput<R>>;
}

/** An operation on a space's content or a change request's, typed for library callers. */
type ContentRead<P extends Entries, Q extends Entries, R extends v.GenericSchema> = Operation<InputOf<P, Q, {}>, v.InferInput<R>, CallerInputOf<P, Q, {}>>;

/** The space read and the change request read of one definition. */
export function twins<P extends Entries, Q extends Entries, R extends v.GenericSchema>(
  definition: TwinDefinition<P, Q, R>,
): [ContentRead<{ spaceId: typeof Id } & P, Q, R>, ContentRead<{ spaceId: typeof Id; changeRequestId: typeof Id } & P, Q, R>] {
  const { params, query, response, run } = definition;
  const onSpace = readOperation({
    name: definition.space[0],
    summary: definition.space[1],
    params: { spaceId: Id, ...params },
    query,
    response,
    run: async (ctx, input: any) => run(ctx, await spaceContent(ctx, input.spaceId), input) as never,
  });
  const onChangeRequest = readOperation({
    name: definition.changeRequest[0],
    summary: definition.changeRequest[1],
    params: { spaceId: Id, changeRequestId: Id, ...params },
    query,
    response,
    run: async (ctx, input: any) => run(ctx, await changeRequestContent(ctx, input.spaceId, input.changeRequestId), input) as never,
  });
  return [onSpace, onChangeRequest] as never;
}

/** The page list of a target's tree, nested, without bodies. */
const pagesOf = (ctx: Context, target: ContentTarget, tree: PageTree, options: ContentOptions): Promise<PageOutput[]> =>
  presentTree(ctx, target, tree.pages, { ...options, lookup: async (id) => tree.byId.get(id) });

/** How a read shows content: as its query asks, with the `git.path`s of the space's Git sync when it shows Git metadata. */
async function shown(ctx: Context, target: ContentTarget, input: ContentOptions): Promise<ContentOptions> {
  const { metadata, computed } = input;
  return { metadata, computed, ...(metadata && { gitPaths: await syncedGitPaths(ctx.tx, target.access.space.id) }) };
}

/** The revision object of a target. */
async function revisionOf(ctx: Context, target: ContentTarget, input: ContentOptions) {
  const options = await shown(ctx, target, input);
  const { revision, access } = target;
  const tree = await readPageTree(ctx.tx, revision);
  const published = access.space.visibility === 'private' ? {} : { published: ctx.urls.published(`/s/${access.space.id}`) };
  return {
    object: 'revision' as const,
    id: revision.id,
    parents: [...revision.parents],
    pages: await pagesOf(ctx, target, tree, options),
    files: await Promise.all(tree.files.map((file) => presentFile(ctx, file, options))),
    reusableContents: [],
    createdAt: revision.createdAt,
    ...(revision.git && { git: { ...revision.git } }),
    type: revision.type,
    urls: {
      app: ctx.urls.app(`/s/${access.space.id}/~/revisions/${revision.id}`),
      ...published,
      ...(access.space.visibility === 'public' && { public: published.published }),
    },
  };
}

/** One page with its subpages and its body; 404 when the target has no such page. */
async function onePage(ctx: Context, target: ContentTarget, page: PageEntry | undefined, missing: string, input: ContentOptions & { format: BodyFormat }) {
  if (!page) throw notFound(missing);
  const lookup = (id: string) => readPage(ctx.tx, target.revision, id);
  const options = { ...(await shown(ctx, target, input)), lookup };
  const subtree = async (parent: PageEntry): Promise<PageOutput[]> => {
    if (parent.type === 'computed') return [];
    const children = await readChildren(ctx.tx, target.revision, parent.id);
    return Promise.all(children.map(async (child) => presentPage(ctx, target, child, await subtree(child), options)));
  };
  return presentPage(ctx, target, page, await subtree(page), { ...options, format: input.format });
}

/** Where content lives, for messages. */
export const nameOf = (target: ContentTarget) => (target.changeRequest ? `change request ${target.changeRequest.number}` : `space ${target.access.space.id}`);

/** Gets the revision (pages nested, files, parents) of a space or a change request. */
export const [getSpaceContent, getChangeRequestContent] = twins({
  space: ['getSpaceContent', "Get a space's current revision"],
  changeRequest: ['getChangeRequestContent', "Get a change request's revision"],
  params: {},
  query: ContentQuery,
  response: RevisionSchema,
  run: (ctx, target, input) => revisionOf(ctx, target, input),
});

/**
 * Gets a revision of a space by id, as getSpaceContent shows the live one (public API getRevisionById):
 * older revisions, a change request's, the one an import made (its `Location`).
 */
export const getRevisionById = readOperation({
  name: 'getRevisionById',
  summary: 'Get a revision of a space by id',
  params: { spaceId: Id, revisionId: Id },
  query: ContentQuery,
  response: RevisionSchema,
  run: async (ctx, input) => revisionOf(ctx, await revisionContent(ctx, input.spaceId, input.revisionId), input),
});

/** Lists the pages of a space or a change request as a tree (`{pages}`), without bodies. */
export const [listSpacePages, listChangeRequestPages] = twins({
  space: ['listSpacePages', 'List the pages of a space'],
  changeRequest: ['listChangeRequestPages', 'List the pages of a change request'],
  params: {},
  query: ContentQuery,
  response: PageListSchema,
  run: async (ctx, target, input) => ({ pages: await pagesOf(ctx, target, await readPageTree(ctx.tx, target.revision), await shown(ctx, target, input)) }),
});

/** Lists the files of a space or a change request, by id, paged. */
export const [listSpaceFiles, listChangeRequestFiles] = twins({
  space: ['listSpaceFiles', 'List the files of a space'],
  changeRequest: ['listChangeRequestFiles', 'List the files of a change request'],
  params: {},
  query: { ...listQuery, ...ContentQuery },
  response: FileList,
  run: async (ctx, target, input) => {
    const files = readMap(ctx.tx, target.revision.content.files);
    const limit: number = input.limit ?? DEFAULT_LIMIT;
    // The cursor is the last file id of the page: the next page starts right after it, in id order.
    const after = input.page === undefined ? undefined : String(decodeCursor(input.page)[0]);
    const items: FileEntry[] = [];
    let more = false;
    for await (const [id, file] of files.entries(after === undefined ? undefined : `${after}\u0000`)) {
      if (items.length === limit) {
        more = true;
        break;
      }
      if (id !== after) items.push(file as FileEntry);
    }
    const options = await shown(ctx, target, input);
    const page: Page<FileOutput> = { items: await Promise.all(items.map((file) => presentFile(ctx, file, options))), count: files.size };
    if (more) page.next = { page: encodeCursor([items[items.length - 1].id]) };
    return page;
  },
});

/** Gets one file of a space or a change request. */
export const [getSpaceFile, getChangeRequestFile] = twins({
  space: ['getSpaceFile', 'Get a file of a space'],
  changeRequest: ['getChangeRequestFile', 'Get a file of a change request'],
  params: { fileId: Id },
  query: ContentQuery,
  response: RevisionFileSchema,
  run: async (ctx, target, input) => {
    const file = await readFile(ctx.tx, target.revision, input.fileId);
    if (!file) throw notFound(`No file ${input.fileId} in ${nameOf(target)}`);
    return presentFile(ctx, file, await shown(ctx, target, input));
  },
});

/** Gets one page of a space or a change request by id, with its subpages and its body (`format`). */
export const [getSpacePage, getChangeRequestPage] = twins({
  space: ['getSpacePage', 'Get a page of a space by id'],
  changeRequest: ['getChangeRequestPage', 'Get a page of a change request by id'],
  params: { pageId: PageId },
  query: PageQuery,
  response: RevisionPageSchema,
  run: async (ctx, target, input) =>
    onePage(ctx, target, await readPage(ctx.tx, target.revision, input.pageId), `No page ${input.pageId} in ${nameOf(target)}`, input),
});

/**
 * Gets one page of a space or a change request by path (`guides/setup`), with its subpages and its body:
 * a document or a group, as in the public API. A link, or a computed page with `computed=false`, is not a
 * page a path shows: 404.
 */
export const [getSpacePageByPath, getChangeRequestPageByPath] = twins({
  space: ['getSpacePageByPath', 'Get a page of a space by path'],
  changeRequest: ['getChangeRequestPageByPath', 'Get a page of a change request by path'],
  params: { pagePath: PagePath },
  query: PageQuery,
  response: PathPageSchema,
  run: async (ctx, target, input) => {
    const path = (input.pagePath as string).replace(/^\/+|\/+$/g, '');
    const page = await readPageByPath(ctx.tx, target.revision, path);
    const shown = page && (page.type === 'document' || page.type === 'group' || (page.type === 'computed' && input.computed));
    // Only documents and groups get this far: the answer is one of the two variants.
    return (await onePage(ctx, target, shown ? page : undefined, `No page at path ${path} in ${nameOf(target)}`, input)) as v.InferInput<typeof PathPageSchema>;
  },
});
