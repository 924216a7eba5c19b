import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Id, MemberRoleOrGuest, MemberRoleSchema, Timestamp, Url } from '../schemas.js';
import { TRANSLATION_LANGUAGES } from '../translations/schemas.js';
import { GIT_SYNC_PROVIDERS } from '../git-sync/git-sync-record.js';

/** A space's title: at most 50 characters. */
export const SpaceTitle = v.pipe(v.string(), v.maxLength(50, 'must be at most 50 characters'));

/** Code points in hex separated by dashes, the other form of an emoji (`1f4d8`, `1f468-200d-1f469`). */
const CODE_POINTS = /^[0-9a-f]{2,6}(?:-[0-9a-f]{2,6})*$/;
const EmojiCharacters = v.pipe(v.string(), v.emoji());

/** An emoji: the characters or their code points in hex, at most 50 characters; empty for none. */
export const Emoji = v.pipe(
  v.string(),
  v.maxLength(50, 'must be at most 50 characters'),
  v.check(
    (value) => value === '' || CODE_POINTS.test(value) || v.is(EmojiCharacters, value),
    'must be an emoji, or its code points in hex such as 1f4d8',
  ),
);

/** Who can read a space without being a member. */
export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;

/** A space's visibility. */
export const SpaceVisibilitySchema = v.picklist(SPACE_VISIBILITIES);

/**
 * The language a space is written in (the public API's TranslationLanguage). The reader gives its pages
 * `lang` and `dir` from it.
 */
export const SpaceLanguageSchema = v.picklist(TRANSLATION_LANGUAGES);

/** Whether a space's content can be changed (`live`) or not (`locked`). */
export const EditModeSchema = v.picklist(['live', 'locked']);

/** A default level in a request: a role, null (no access by default), or `inherit` (take the parent's). */
export const DefaultLevelInput = v.union([MemberRoleOrGuest, v.literal('inherit')], 'must be a role, null or inherit');

/** A share key in a query: the secret of a share link. */
export const ShareKey = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(200, 'must be at most 200 characters'),
  v.regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, _ and -'),
);

/** A position reference of a move: a space or a collection among the siblings. */
export const ContentPointer = v.variant('type', [
  v.object({ type: v.literal('space'), space: Id }),
  v.object({ type: v.literal('collection'), collection: Id }),
]);

/** The body of a move of a space or a collection: the new parent and/or the place among its siblings. */
export const MoveBody = {
  parent: v.optional(v.nullable(Id)),
  position: v.optional(v.object({ before: v.optional(ContentPointer), after: v.optional(ContentPointer) })),
};

/** The body of a transfer: the target organization, optionally a collection there. */
export const TransferBody = {
  organization: Id,
  collection: v.optional(Id),
};

/** The space object of responses. */
export const SpaceSchema = v.object({
  object: v.literal('space'),
  id: v.string(),
  title: v.string(),
  emoji: v.string(),
  visibility: SpaceVisibilitySchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: v.optional(Timestamp),
  editMode: EditModeSchema,
  language: v.optional(SpaceLanguageSchema),
  urls: v.object({
    location: Url,
    app: Url,
    published: v.optional(Url),
    public: v.optional(Url),
  }),
  organization: v.string(),
  parent: v.optional(v.string()),
  visitorAuth: v.optional(v.object({ backend: v.literal('custom') })),
  /** The Git repository the space is synced with (Git Sync), never its credentials. */
  gitSync: v.optional(
    v.object({
      installationId: v.string(),
      installationProvider: v.picklist(GIT_SYNC_PROVIDERS),
      installationStatus: v.literal('active'),
      repoName: v.string(),
      url: v.string(),
      updatedAt: Timestamp,
    }),
  ),
  revision: v.string(),
  defaultLevel: MemberRoleOrGuest,
  comments: v.number(),
  changeRequests: v.number(),
  changeRequestsOpen: v.number(),
  changeRequestsDraft: v.number(),
  permissions: v.object({
    view: v.boolean(),
    access: v.boolean(),
    admin: v.boolean(),
    viewInviteLinks: v.boolean(),
    edit: v.boolean(),
    triggerGitSync: v.boolean(),
    comment: v.boolean(),
    merge: v.boolean(),
    review: v.boolean(),
  }),
});

/** A list of spaces. */
export const SpaceList = listSchema(SpaceSchema);

/** A space a member can access, with the member's level on it. */
export const MemberSpaceEntry = v.object({ permission: MemberRoleSchema, space: SpaceSchema });

/** A list of the spaces of a member. */
export const MemberSpaceList = listSchema(MemberSpaceEntry);
