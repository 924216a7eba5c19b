import * as v from 'valibot';
import { isOpenableUrl } from '../openable-url.js';
import { Id } from '../../schemas.js';
import { notReserved } from '../../sites/paths.js';
import { PageTextFields } from '../page-fields.js';
import { PageCoverInput } from '../page-cover.js';
import { PageLayoutInput } from '../page-layout.js';
import { ComputedSourceSchema } from '../schemas.js';

/** The most changes in one batch. */
export const MAX_CHANGES = 50;
/** The most files in one insert_files change. */
export const MAX_FILES_PER_CHANGE = 20;
/** The most bytes of a file sent inline as base64 (1 MiB, decoded). */
export const MAX_INLINE_FILE_BYTES = 1024 * 1024;
/** The most bytes of a file fetched from a URL (10 MiB). */
export const MAX_FETCHED_FILE_BYTES = 10 * 1024 * 1024;

/** A batch-local name for a page or a file inserted in the batch, that other changes of the batch use. */
const Ref = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.regex(/^[A-Za-z0-9._-]+$/, 'must contain only letters, digits, ., _ and -'),
);

/** A page in a change: its id, or the ref of a page inserted earlier in the batch. */
const PageRef = Id;

/** A page body: Markdown, the JSON document, or empty (`{}`). */
const DocumentInput = v.union(
  [v.strictObject({ markdown: v.string() }), v.strictObject({ document: v.unknown() }), v.strictObject({})],
  'must be {"markdown": "..."}, {"document": {...}} or {}',
);

/** Where a link page points: an http, https or mailto URL, or a page. Links in Markdown bodies stay as written. */
const LinkTargetInput = v.variant('kind', [
  v.object({
    kind: v.literal('url'),
    url: v.pipe(
      v.string(),
      v.minLength(1, 'must not be empty'),
      v.maxLength(2048, 'must be at most 2048 characters'),
      v.check(isOpenableUrl, 'must be an http, https or mailto URL'),
    ),
  }),
  v.object({ kind: v.literal('page'), page: Id }),
]);

/** The page fields a change may set (Markdown frontmatter, when given, wins over them). */
const PageFields = {
  title: v.optional(PageTextFields.title),
  slug: v.optional(v.pipe(v.string(), notReserved)),
  emoji: v.optional(PageTextFields.emoji),
  icon: v.optional(PageTextFields.icon),
  description: v.optional(PageTextFields.description),
  hidden: v.optional(v.boolean()),
  noIndex: v.optional(v.boolean()),
  noRobotsIndex: v.optional(v.boolean()),
  target: v.optional(LinkTargetInput),
  computed: v.optional(ComputedSourceSchema),
  /** Layout options to set (document and computed pages); the options left out stay as they are. */
  layout: v.optional(PageLayoutInput),
  /** The cover image (document and computed pages); null removes it. */
  cover: v.optional(v.nullable(PageCoverInput)),
};

const At = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be 0 or more'));

/** Inserts a page: a document (default; `document` required), or with `type` a group, a link or a computed page. */
export const InsertPage = v.object({
  operation: v.literal('insert_page'),
  ...PageFields,
  type: v.optional(v.picklist(['document', 'group', 'link', 'computed']), 'document'),
  into: v.optional(PageRef),
  at: v.optional(At),
  ref: v.optional(Ref),
  document: v.optional(DocumentInput),
});

/** Updates a page's fields, body, place (`into`: a page, null for the top level; `at`: position). */
export const UpdatePage = v.object({
  operation: v.literal('update_page'),
  page: PageRef,
  ...PageFields,
  document: v.optional(DocumentInput),
  into: v.optional(v.nullable(PageRef)),
  at: v.optional(At),
});

/** Deletes a page and its subpages. */
export const DeletePage = v.object({ operation: v.literal('delete_page'), page: PageRef });

/** The most block keys of one revert_page change. */
export const MAX_REVERTED_BLOCKS = 1000;

/**
 * Sets a page back to its state in a revision of the space (`revision`; default: the change request's
 * base), the whole page, or with `block` only those blocks of its body (keys of its format=document form).
 */
export const RevertPage = v.object({
  operation: v.literal('revert_page'),
  page: PageRef,
  revision: v.optional(Id),
  block: v.optional(
    v.pipe(
      v.array(Id),
      v.minLength(1, 'must have at least one block key'),
      v.maxLength(MAX_REVERTED_BLOCKS, `must have at most ${MAX_REVERTED_BLOCKS} block keys`),
    ),
  ),
});

/** One file to upload: exactly one source, `url` (fetched) or `base64` (with `contentType`). */
export const FileInput = v.pipe(
  v.object({
    ref: v.optional(Ref),
    name: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters'), v.regex(/^[^/\\\u0000]+$/, 'must not contain / or \\')),
    contentType: v.optional(v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a media type such as image/png'))),
    url: v.optional(v.pipe(v.string(), v.maxLength(2048, 'must be at most 2048 characters'), v.regex(/^https?:\/\/\S+$/i, 'must be an http(s) URL'))),
    base64: v.optional(v.string()),
  }),
  v.check((file) => (file.url === undefined) !== (file.base64 === undefined), 'give exactly one of url and base64'),
  v.check((file) => file.base64 === undefined || file.contentType !== undefined, 'contentType is required with base64'),
);

/** Uploads files into the content. */
export const InsertFiles = v.object({
  operation: v.literal('insert_files'),
  files: v.pipe(v.array(FileInput), v.minLength(1, 'must have at least one file'), v.maxLength(MAX_FILES_PER_CHANGE, `must have at most ${MAX_FILES_PER_CHANGE} files`)),
});

/** One change of a batch. */
export const ContentChange = v.variant(
  'operation',
  [InsertPage, UpdatePage, DeletePage, RevertPage, InsertFiles],
  'must be insert_page, update_page, delete_page, revert_page or insert_files',
);

/** The ordered changes of a batch. */
export const ContentChanges = v.pipe(
  v.array(ContentChange),
  v.minLength(1, 'must have at least one change'),
  v.maxLength(MAX_CHANGES, `must have at most ${MAX_CHANGES} changes`),
);

/** A change of a batch, validated. */
export type ContentChangeInput = v.InferOutput<typeof ContentChange>;
/** A file of an insert_files change, validated. */
export type FileChangeInput = v.InferOutput<typeof FileInput>;
