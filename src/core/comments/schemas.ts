import * as v from 'valibot';
import { JSONDocumentSchema } from '../content/schemas.js';
import { listQuery, listSchema } from '../pagination.js';
import { Id, QueryStringList, Timestamp, Url, UserSchema } from '../schemas.js';

/** The longest comment or reply body, in characters of Markdown. */
export const MAX_BODY_LENGTH = 20_000;

/** The most emojis one update may add, or remove. */
export const MAX_REACTIONS_PER_UPDATE = 50;

/** The most authors one list may filter on. */
export const MAX_AUTHORS = 100;

/** The formats a body is returned in: Markdown (the default) or the public API's JSON document. */
export const BODY_FORMATS = ['markdown', 'document'] as const;

/** A body format. */
export type BodyFormat = (typeof BODY_FORMATS)[number];

/** The `format` query parameter. */
export const FormatQuery = { format: v.optional(v.picklist(BODY_FORMATS)) };

const BodyShape = v.strictObject({
  markdown: v.optional(v.pipe(v.string(), v.maxLength(MAX_BODY_LENGTH, `must be at most ${MAX_BODY_LENGTH} characters`))),
  document: v.optional(v.record(v.string(), v.unknown())),
});

/** A body on write, validated. */
export type BodyValue = v.InferOutput<typeof BodyShape>;

/**
 * A body on write: `{markdown}`, `{document}` (a JSON document, checked when it is converted) or `{}`,
 * the empty body, as the public API's Document type; nothing else (an array is refused by parseOrThrow).
 */
export const BodyInput = v.pipe(
  BodyShape,
  v.check((body) => body.markdown === undefined || body.document === undefined, 'must have markdown or document, not both'),
);

const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/i;

/** An emoji given as its code points in hex (`1f389`, `1f44d-1f3fd`) as characters; anything else as is. */
function fromCodePoints(value: string): string {
  if (!CODE_POINTS.test(value)) return value;
  try {
    return String.fromCodePoint(...value.split('-').map((hex) => Number.parseInt(hex, 16)));
  } catch {
    return value;
  }
}

/** The emoji of a reaction: the characters, or their code points in hex (stored as the characters). */
export const ReactionEmoji = v.pipe(
  v.string(),
  v.maxLength(50, 'must be at most 50 characters'),
  v.transform(fromCodePoints),
  v.emoji('must be an emoji, or its code points in hex such as 1f389'),
);

/** A list of emojis to add or remove. */
const ReactionList = v.pipe(
  v.array(ReactionEmoji),
  v.maxLength(MAX_REACTIONS_PER_UPDATE, `must have at most ${MAX_REACTIONS_PER_UPDATE} entries`),
);

/** The body of a post: the comment's body, and what it is about. */
export const PostCommentBody = {
  body: BodyInput,
  node: v.optional(Id),
  page: v.optional(Id),
};

/** The body of a reply. */
export const PostReplyBody = { body: BodyInput };

/** The body of a reply's update: all optional. */
export const UpdateReplyBody = {
  body: v.optional(BodyInput),
  addedReactions: v.optional(ReactionList),
  removedReactions: v.optional(ReactionList),
};

/** The body of a comment's update: all optional. */
export const UpdateCommentBody = { resolved: v.optional(v.boolean()), ...UpdateReplyBody };

/** The query of a list of comments. */
export const CommentListQuery = {
  ...listQuery,
  order: v.optional(v.picklist(['asc', 'desc']), 'desc'),
  status: v.optional(v.picklist(['all', 'open', 'resolved']), 'all'),
  ...FormatQuery,
  targetPage: v.optional(Id),
  authors: v.optional(
    v.pipe(QueryStringList, v.maxLength(MAX_AUTHORS, `must have at most ${MAX_AUTHORS} entries`), v.array(Id)),
  ),
};

/** The query of a list of replies. */
export const ReplyListQuery = { ...listQuery, ...FormatQuery };

/** A body in a response: Markdown, or the JSON document with `format=document` (the page bodies' schema). */
export const BodyOutput = v.union([v.object({ markdown: v.string() }), v.object({ document: JSONDocumentSchema })]);

/** The reactions of a comment or a reply: one entry per emoji, with who reacted and when. */
const ReactionsSchema = v.array(
  v.object({
    emoji: v.string(),
    count: v.pipe(v.number(), v.integer()),
    users: v.array(v.object({ user: UserSchema, reactedAt: Timestamp })),
  }),
);

/** What the caller may do with a comment or a reply. */
const CommentPermissionsSchema = v.object({ view: v.boolean(), edit: v.boolean(), reply: v.boolean(), delete: v.boolean() });

/** The page a comment is about, as its target shows it. */
const PageTargetSchema = v.object({
  id: v.string(),
  title: v.string(),
  emoji: v.optional(v.string()),
  icon: v.optional(v.string()),
  createdAt: v.optional(Timestamp),
  updatedAt: v.optional(Timestamp),
  path: v.string(),
  outdated: v.boolean(),
});

/** The fields a comment and a reply share. */
const POSTED = {
  id: v.string(),
  postedBy: UserSchema,
  postedAt: Timestamp,
  editedAt: v.optional(Timestamp),
  reactions: ReactionsSchema,
  body: BodyOutput,
  urls: v.object({ location: Url }),
  permissions: CommentPermissionsSchema,
};

/** The comment object of responses. */
export const CommentSchema = v.object({
  object: v.literal('comment'),
  ...POSTED,
  replies: v.pipe(v.number(), v.integer()),
  target: v.object({
    node: v.optional(v.object({ id: v.string(), preview: v.optional(v.string()) })),
    changeRequest: v.optional(v.string()),
    page: v.optional(PageTargetSchema),
    space: v.string(),
    revision: v.string(),
  }),
  status: v.picklist(['open', 'resolved']),
  resolvedAt: v.optional(Timestamp),
  resolvedBy: v.optional(UserSchema),
});

/** A list of comments. */
export const CommentList = listSchema(CommentSchema);

/** The comment reply object of responses. */
export const CommentReplySchema = v.object({ object: v.literal('comment-reply'), ...POSTED });

/** A list of replies. */
export const CommentReplyList = listSchema(CommentReplySchema);
