import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { QueryBoolean, Timestamp, Url } from '../schemas.js';
import { TOP_LEVEL_BLOCK_TYPES } from './document.js';
import { PageCoverSchema } from './page-cover.js';
import { PageLayoutSchema } from './page-layout.js';

/** The query every content read takes: `metadata=false` omits the mutable Git metadata, `computed=false` skips computed pages. */
export const ContentQuery = {
  metadata: v.optional(QueryBoolean, true),
  computed: v.optional(QueryBoolean, true),
};

/** The body formats of a page: Markdown (the default) or the JSON document. */
export const PageFormatSchema = v.picklist(['markdown', 'document'], 'must be markdown or document');

/** The query of a one-page read. */
export const PageQuery = { ...ContentQuery, format: v.optional(PageFormatSchema, 'markdown') };

/** Where a page or a file sits in a Git export, and its blob id. */
const GitBlob = v.object({ oid: v.string(), path: v.string() });

/** What a link page or an inline reference points at. */
export const ContentRefSchema = v.variant('kind', [
  v.object({ kind: v.literal('url'), url: v.string() }),
  v.object({ kind: v.literal('page'), page: v.string() }),
  v.object({ kind: v.literal('file'), file: v.string() }),
  v.object({ kind: v.literal('anchor'), anchor: v.string(), page: v.optional(v.string()) }),
]);

/** The source of a computed page. */
export const ComputedSourceSchema = v.object({
  type: v.literal('builtin:openapi'),
  dependencies: v.object({ spec: v.object({ ref: v.object({ kind: v.literal('openapi'), spec: v.string() }) }) }),
  props: v.object({ models: v.optional(v.boolean()), doc: v.optional(v.picklist(['info', 'models', 'operation', 'operations', 'tag'])) }),
});

/** A JSON document (content/document.ts), as a page's `document` (and a comment's body). */
export const JSONDocumentSchema = v.object({
  object: v.literal('document'),
  data: v.record(v.string(), v.unknown()),
  nodes: v.array(v.looseObject({ object: v.literal('block'), type: v.picklist(TOP_LEVEL_BLOCK_TYPES) })),
});

/** A tag of a page (the public API's RevisionPageTag). Pages have no tags here: `tags` is always `[]`. */
const PageTagSchema = v.object({ tag: v.object({ kind: v.literal('tag'), tag: v.string() }), primary: v.optional(v.boolean()) });

const base = {
  id: v.string(),
  title: v.string(),
  emoji: v.optional(v.string()),
  icon: v.optional(v.string()),
  createdAt: v.optional(Timestamp),
  updatedAt: v.optional(Timestamp),
};

const flags = { hidden: v.boolean(), noIndex: v.boolean(), noRobotsIndex: v.boolean() };

/** How deep the response schemas spell out subpages; deeper levels are checked loosely (id, title, type). */
const SCHEMA_DEPTH = 6;

const LoosePage = v.looseObject({ id: v.string(), title: v.string(), type: v.picklist(['document', 'group', 'link', 'computed']) });

/** The page variants with their subpages spelled out `depth` levels down. */
function pageVariants(depth: number) {
  const children = depth === 0 ? v.array(LoosePage) : v.array(childPage(depth - 1));
  const document = v.object({
    ...base,
    kind: v.literal('sheet'),
    type: v.literal('document'),
    urls: v.object({ app: Url }),
    slug: v.string(),
    path: v.string(),
    description: v.optional(v.string()),
    documentId: v.optional(v.string()),
    pages: children,
    git: v.optional(GitBlob),
    layout: PageLayoutSchema,
    cover: v.optional(PageCoverSchema),
    ...flags,
    tags: v.array(PageTagSchema),
    markdown: v.optional(v.string()),
    document: v.optional(JSONDocumentSchema),
    computed: v.optional(ComputedSourceSchema),
    computedSeed: v.optional(v.string()),
  });
  const group = v.object({ ...base, kind: v.literal('group'), type: v.literal('group'), slug: v.string(), path: v.string(), pages: children, ...flags });
  const link = v.object({ ...base, kind: v.literal('link'), type: v.literal('link'), target: ContentRefSchema, href: v.string(), hidden: v.boolean() });
  const computed = v.object({ ...base, type: v.literal('computed'), slug: v.string(), path: v.string(), computed: ComputedSourceSchema, hidden: v.boolean() });
  return { document, group, link, computed };
}

/** A subpage: a document, a link or a computed page (groups live only at the top level). */
function childPage(depth: number): v.GenericSchema {
  const { document, link, computed } = pageVariants(depth);
  return v.variant('type', [document, link, computed]);
}

const top = pageVariants(SCHEMA_DEPTH);

/** A page of a revision in responses: `pages: []` is always there on documents and groups. */
export const RevisionPageSchema = v.variant('type', [top.document, top.group, top.link, top.computed]);

/** A page found by its path: a document or a group (links and unexpanded computed pages have no page to show there). */
export const PathPageSchema = v.variant('type', [top.document, top.group]);

/** The page list of a revision. */
export const PageListSchema = v.object({ pages: v.array(RevisionPageSchema) });

/** A file of a revision in responses. */
export const RevisionFileSchema = v.object({
  id: v.string(),
  name: v.string(),
  contentType: v.string(),
  downloadURL: Url,
  size: v.number(),
  dimensions: v.optional(v.object({ width: v.number(), height: v.number() })),
  git: v.optional(GitBlob),
});

/** A list of files. */
export const FileList = listSchema(RevisionFileSchema);

/** A revision in responses. */
export const RevisionSchema = v.object({
  object: v.literal('revision'),
  id: v.string(),
  parents: v.array(v.string()),
  pages: v.array(RevisionPageSchema),
  files: v.array(RevisionFileSchema),
  reusableContents: v.array(v.object({ id: v.string(), title: v.string(), document: v.string() })),
  createdAt: Timestamp,
  git: v.optional(v.object({ oid: v.string(), message: v.string(), ref: v.optional(v.string()), url: v.optional(v.string()), createdByService: v.boolean() })),
  type: v.picklist(['edits', 'merge', 'update', 'rollback']),
  urls: v.object({ app: Url, published: v.optional(Url), public: v.optional(Url) }),
});
