import type { IndexDefinition, StoreSchema, StoredRecord } from '../store/types.js';
import type { MemberRole, TeamRole } from './roles.js';

/**
 * The records docs-platform stores, one interface per table, and the indexes the core reads them by.
 * Records hold facts only; counts and permissions are computed when a response is built.
 */

/** A person who can sign in. E-mail addresses are stored lower-cased and are unique. */
export interface UserRecord extends StoredRecord {
  readonly id: string;
  readonly displayName: string;
  readonly email: string;
  readonly photoURL?: string;
  readonly createdAt: string;
}

/** An organization and its settings. */
export interface OrganizationRecord extends StoredRecord {
  readonly id: string;
  readonly title: string;
  readonly createdAt: string;
  readonly emailDomains: readonly string[];
  readonly hostname?: string;
  readonly defaultRole: MemberRole | null;
  readonly defaultContent?: { readonly type: 'site'; readonly site: string };
  readonly logo?: string;
  readonly sso: boolean;
  readonly ai: boolean;
  readonly inviteLinks: boolean;
}

/** A user's membership of an organization; id is `<organizationId>/<userId>`. */
export interface MemberRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly role: MemberRole | null;
  readonly disabled: boolean;
  readonly sso: boolean;
  readonly joinedAt: string;
  readonly lastSeenAt?: string;
}

/** An API token; id is the SHA-256 hash of the secret, which is never stored. */
export interface TokenRecord extends StoredRecord {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: string;
  readonly label: string;
  /** When it was last used, to the minute (token-use.ts); absent until its first use. */
  readonly lastUsedAt?: string;
}

/** A team of an organization. */
export interface TeamRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly createdAt: string;
}

/** A member's place in a team; id is `<teamId>/<userId>`; memberId is the MemberRecord id. */
export interface TeamMemberRecord extends StoredRecord {
  readonly id: string;
  readonly teamId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly memberId: string;
  readonly role: TeamRole;
  readonly addedAt: string;
}

/** An invite link that lets any signed-in user who has it join an organization with a role. */
export interface InviteRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly role: MemberRole | null;
  readonly createdAt: string;
  readonly createdBy: string;
}

/**
 * A one-time claim of an API token for a user an admin invited by e-mail (claims/): whoever presents its
 * code, before `expiresAt` and only once, gets a new token of the user. id is the SHA-256 of the code, which
 * is never stored; `redeemedAt` is set when it was used.
 */
export interface ClaimRecord extends StoredRecord {
  readonly id: string;
  readonly userId: string;
  /** The organization whose admin issued it: the user must still be an active member of it to redeem it. */
  readonly organizationId: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly redeemedAt?: string;
}

/** An index entry: organization `organizationId` claims e-mail `domain`; id is `<domain>/<organizationId>`. */
export interface OrganizationDomainRecord extends StoredRecord {
  readonly id: string;
  readonly domain: string;
  readonly organizationId: string;
}

/** Settings of the platform itself, e.g. the key that signs visitor claims. */
export interface SettingRecord extends StoredRecord {
  readonly id: string;
  readonly value: string;
}

/**
 * A SAML identity provider members can sign in with. The optional connection fields are absent until an
 * admin sets them; `defaultTeamId` (absent: none) is a team of the same organization.
 */
export interface SamlProviderRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly label: string;
  readonly ssoURL?: string;
  readonly entityID?: string;
  readonly certificate?: string;
  readonly defaultTeamId?: string;
  readonly defaultRole: MemberRole | null;
  readonly createdAt: string;
}

/** An organization's translation settings: a title and the languages content is translated into. */
export interface TranslationRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly languages: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A custom field of an organization's spaces; `key` is `<organizationId>/<name>`, unique. */
export interface CustomFieldRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly key: string;
  readonly name: string;
  readonly type: string;
  readonly title: string;
  readonly description: string;
  readonly placeholder: string;
  readonly options?: readonly string[];
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The value of a custom field on a space; id is `<spaceId>/<fieldId>`. */
export interface CustomFieldValueRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly fieldId: string;
  readonly value: string | number | boolean | readonly string[];
  readonly updatedAt: string;
}

/**
 * Where a space or collection sits: its organization, its parent collection (absent: the top level)
 * and its place among its siblings. `parentKey` names the sibling group (see collections/tree.ts,
 * `parentKeyOf`) and `orderKey` orders it within the group (see ordering/keys.ts).
 */
export interface PlacedRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly parent?: string;
  readonly parentKey: string;
  readonly orderKey: string;
}

/** Who can read a space without being a member: from anyone (`public`) to authorized members (`private`). */
export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

/**
 * A space. `defaultLevel` absent means it inherits its collection's level (see permissions.ts).
 * A deleted space keeps its record with `deletedAt` and `trashed: true` (the sweep's index) until it
 * is restored or its 7 days are over (spaces/trash.ts).
 */
export interface SpaceRecord extends PlacedRecord {
  readonly title: string;
  readonly emoji: string;
  readonly visibility: SpaceVisibility;
  readonly editMode: 'live' | 'locked';
  readonly defaultLevel?: MemberRole | null;
  /** The language its content is written in (a TranslationLanguage code); absent when never set. */
  readonly language?: string;
  /** The id of the space's current revision. */
  readonly revision: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly deletedAt?: string;
  readonly trashed?: true;
}

/** A collection of spaces and collections. `defaultLevel` absent means it inherits its parent's. */
export interface CollectionRecord extends PlacedRecord {
  readonly title: string;
  readonly description?: string;
  readonly defaultLevel?: MemberRole | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The root of a persistent sorted map of a revision (content/btree.ts): its root node (null: empty) and its size. */
export interface MapRootRecord {
  readonly node: string | null;
  readonly size: number;
}

/**
 * The content of a revision: the roots of its four maps (content/model.ts says what each holds). The
 * maps' nodes are shared with the revisions it came from, except the few a change rewrote.
 */
export interface RevisionContent {
  /** Page id → the page (content/model.ts PageEntry). */
  readonly pages: MapRootRecord;
  /** `<parent id>\u0000<order key>` → page id: each page's children in order. */
  readonly children: MapRootRecord;
  /** Page path → page id. */
  readonly paths: MapRootRecord;
  /** File id → the file (content/model.ts FileEntry). */
  readonly files: MapRootRecord;
}

/** How a revision was made. */
export type RevisionType = 'edits' | 'merge' | 'update' | 'rollback';

/**
 * An immutable snapshot of a space's content (content/). A new space starts with an empty one with no
 * parents, so that `space.revision` always names a real record; every change makes a new one whose
 * `parents` name the revisions it came from.
 */
export interface RevisionRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly parents: readonly string[];
  readonly type: RevisionType;
  /** The change request it was made in, or merged from (absent: made on the space itself). */
  readonly changeRequestId?: string;
  readonly content: RevisionContent;
  readonly createdAt: string;
  /** The Git commit it was synced with (Git Sync): the revision's `git`. */
  readonly git?: RevisionGitRecord;
}

/** The Git commit of a revision: its id, message and ref, its URL, and whether the platform made it. */
export interface RevisionGitRecord {
  readonly oid: string;
  readonly message: string;
  readonly ref?: string;
  readonly url?: string;
  readonly createdByService: boolean;
}

/** A page body: Markdown, immutable, shared by every revision whose page points at it (`PageEntry.document`). */
export interface ContentDocumentRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly markdown: string;
  /** The Git blob id of the Markdown, for the page's `git.oid`. */
  readonly gitOid: string;
  readonly createdAt: string;
}

/** A team's level on a space, given directly (not capped by the members' organization roles). */
export interface SpaceGrantRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly teamId: string;
  readonly role: MemberRole;
  readonly createdAt: string;
}

/** Where a change request stands: `merged` is reached only through a merge, and is final. */
export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

/**
 * A change request of a space (change-requests/): a branch of its content. `number` counts a space's
 * requests from 1. Its base is `revisionMergedAncestor ?? revisionInitial`: the space revision it last
 * started from or was brought up to date with.
 */
export interface ChangeRequestRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly number: number;
  readonly status: ChangeRequestStatus;
  readonly subject: string;
  /** The user who created it. */
  readonly createdBy: string;
  /** The creator and every user who changed its content, each once, in order of first contribution. */
  readonly contributors: readonly string[];
  /** Its current revision. */
  readonly revision: string;
  /** The space revision it was created from. */
  readonly revisionInitial: string;
  /** The space revision it was last brought up to date with (update). */
  readonly revisionMergedAncestor?: string;
  /** The revision its merge made. */
  readonly revisionMerged?: string;
  readonly mergedBy?: string;
  readonly mergedAt?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A user asked to review a change request; id is `<changeRequestId>/<userId>`, so that asking again is the
 * same record (a conflict-free upsert), not a second one.
 */
export interface ChangeRequestReviewerRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly changeRequestId: string;
  readonly userId: string;
  /** Who asked. */
  readonly requestedBy: string;
  /** The change request's revision when it was asked. */
  readonly revision: string;
  readonly createdAt: string;
}

/**
 * A comment in a space, on the space itself or (with `changeRequestId`) on one of its change
 * requests (comments/). `listKey` names the list it is in (comments/keys.ts); `openKey` is the same
 * value while the comment is open and absent once resolved, so the open comments are an index of their
 * own and `space.comments` and `changeRequest.comments` are counted without reading the others.
 */
export interface CommentRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly changeRequestId?: string;
  readonly status: 'open' | 'resolved';
  readonly postedAt: string;
  readonly listKey: string;
  readonly openKey?: string;
  /** The user who posted it. */
  readonly postedBy: string;
  /** The body, in canonical Markdown (content/markdown.ts); '' for the empty body. */
  readonly markdown: string;
  readonly editedAt?: string;
  readonly resolvedAt?: string;
  readonly resolvedBy?: string;
  /** The revision its target is in: the space's (or the change request's) revision when it was posted. */
  readonly revision: string;
  /** The page it is about, if any. */
  readonly page?: string;
  /** The block of that page it is about, if any, with a short text of it. */
  readonly node?: { readonly id: string; readonly preview?: string };
  readonly reactions: readonly ReactionRecord[];
}

/** The users who reacted to a comment or a reply with one emoji, in the order they did. */
export interface ReactionRecord {
  readonly emoji: string;
  readonly users: readonly { readonly userId: string; readonly reactedAt: string }[];
}

/** A reply to a comment (comments/): deleted with it, and with its space. */
export interface CommentReplyRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly commentId: string;
  readonly postedBy: string;
  readonly postedAt: string;
  readonly markdown: string;
  readonly editedAt?: string;
  readonly reactions: readonly ReactionRecord[];
}

/** Where processing an OpenAPI specification stands: `pending` (asked for), `progress` (running), `complete` (done). */
export type OpenAPIProcessingState = 'pending' | 'progress' | 'complete';

/** Why the last processing of an OpenAPI specification failed. */
export type OpenAPIProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

/**
 * An OpenAPI specification of an organization; `key` is `<organizationId>/<slug>`, unique. The source is
 * `sourceURL`, or a text kept in `pendingText` only until it is processed (the version keeps the document).
 * `processingSince` is when the current state began; a `pending` or `progress` state older than the
 * processing deadline belongs to work that died, and is taken over (openapi-specs/processing.ts).
 * `claim` names the run that holds `progress`: a run finishes only while it still holds it.
 */
export interface OpenAPISpecRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly key: string;
  readonly slug: string;
  readonly sourceURL?: string;
  readonly pendingText?: string;
  readonly processingState: OpenAPIProcessingState;
  readonly processingSince: string;
  readonly claim?: string;
  readonly lastVersion?: string;
  readonly lastProcessedAt?: string;
  readonly lastProcessErrorCode?: OpenAPIProcessErrorCode;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A processed version of an OpenAPI specification: the document as JSON text, in the blob store under
 * `documentKey` (a document of megabytes in a record cost the store tens of milliseconds of the main thread
 * to journal, and every snapshot to rewrite), and the SHA-256 of its canonical form, which tells an unchanged
 * document from a new one. `number` counts a specification's versions from 1. Versions stored before
 * documents moved to the blob store hold theirs in `document`.
 */
export interface OpenAPISpecVersionRecord extends StoredRecord {
  readonly id: string;
  readonly specId: string;
  readonly number: number;
  readonly documentKey?: string;
  readonly document?: string;
  readonly digest: string;
  readonly createdAt: string;
}

/** Who can read a published site: anyone (`public`, `unlisted`), holders of a share link, or authenticated visitors. */
export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

/**
 * A site: published documentation made of site spaces, either at its root or organized in sections
 * (sites/). `defaultSiteSpaceId` (root level) and `defaultSectionId` point at the defaults; a pointer
 * that names nothing any more means "the first one" (sites/structure.ts). `proxy` is the origin
 * (`company.com/docs`); `adaptiveSchema` is absent until it is first set.
 */
export interface SiteRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly type: string;
  readonly title: string;
  readonly visibility: SiteVisibility;
  readonly published: boolean;
  readonly hostname?: string;
  readonly basename?: string;
  readonly proxy?: string;
  readonly adaptiveContent: boolean;
  readonly defaultSiteSpaceId?: string;
  readonly defaultSectionId?: string;
  readonly adaptiveSchema?: { readonly jsonSchema: Readonly<Record<string, unknown>>; readonly updatedAt: string };
  /**
   * How many times each key of the site's readers was made anew; absent: never. `visitorAuth` counts the
   * regenerations of the publishing auth's private key (sites/reader/site-keys.ts), which is derived from the
   * platform's signing key and this count, so no secret is stored with the site. `share` is the count of
   * the share key of earlier versions, which the upgrade to share links (sites/share-links/upgrade.ts) reads.
   */
  readonly readerKeyRotations?: { readonly share?: number; readonly visitorAuth?: number };
  /** How visitors of a `visitor-auth` site authenticate (`publishing/auth`); absent: the custom backend, no URLs. */
  readonly publishingAuth?: { readonly backend: 'custom'; readonly fallbackURL?: string; readonly logoutURL?: string };
  readonly createdAt: string;
}

/**
 * The customization settings of a site (`PUT …/customization`), by the site's id: absent until they are
 * first set. `settings` is the validated object (sites/customization/settings-schema.ts), stored whole.
 */
export interface SiteCustomizationRecord extends StoredRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly settings: Readonly<Record<string, unknown>>;
  readonly updatedAt: string;
}

/** Where a site redirect leads (the public API's SiteRedirectDestination). */
export type SiteRedirectDestination =
  | { readonly kind: 'site-section'; readonly siteSectionId: string }
  | { readonly kind: 'site-space'; readonly siteSpaceId: string }
  | { readonly kind: 'site-page'; readonly siteSpaceId: string; readonly pageId: string }
  | { readonly kind: 'external'; readonly url: string };

/**
 * A redirect of a site (sites/redirects/): readers of `source` (a path of the site, `*` at its end matching
 * any rest) are sent to `destination`. A draft one is not live. The derived fields are what it is found by:
 * `sourceKey` (`<siteId>␀<draft|live>␀<source, percent-decoded>`) is unique, `listKey` (`<siteId>␀<draft|live>`)
 * lists them, `touchedAt` is `updatedAt` or else `createdAt`, and `wildcardSite` (the site's id, on live
 * redirects whose source ends with `*` only) lists the ones the reader tries when no source is the path.
 */
export interface SiteRedirectRecord extends StoredRecord {
  readonly id: string;
  readonly siteId: string;
  readonly organizationId: string;
  readonly source: string;
  readonly draft: boolean;
  readonly captureWildcard: boolean;
  readonly permanent: boolean;
  readonly destination: SiteRedirectDestination;
  readonly createdAt: string;
  readonly updatedAt?: string;
  readonly sourceKey: string;
  readonly listKey: string;
  readonly touchedAt: string;
  readonly wildcardSite?: string;
}

/**
 * A page path of a space that a later revision moved (content/moved-pages.ts): `pageId` was at `path`. The
 * id is `<spaceId>/<path>`: the latest page to leave a path is the one its old URL leads to.
 */
export interface PageMoveRecord extends StoredRecord {
  readonly id: string;
  readonly spaceId: string;
  readonly path: string;
  readonly pageId: string;
  readonly movedAt: string;
}

/**
 * A share link of a site: who holds its key reads the site while it is `share-link` and the link is
 * `active`. The key is derived from the platform's signing key and the link (sites/reader/site-keys.ts),
 * so nothing secret is stored; deleting the link revokes it. `legacyRotation` marks the link an upgrade
 * made of an earlier version's share key (sites/share-links/upgrade.ts): its key is derived as that was.
 */
export interface SiteShareLinkRecord extends StoredRecord {
  readonly id: string;
  readonly siteId: string;
  readonly organizationId: string;
  readonly name?: string;
  readonly active: boolean;
  readonly legacyRotation?: number;
  readonly createdAt: string;
}

/** A group of sections of a site, a sibling of the site's ungrouped sections (`parentKey` `site:<siteId>`). */
export interface SiteSectionGroupRecord extends StoredRecord {
  readonly id: string;
  readonly siteId: string;
  readonly organizationId: string;
  readonly title: string;
  readonly icon?: string;
  readonly parentKey: string;
  readonly orderKey: string;
  readonly createdAt: string;
}

/**
 * A section of a site: at the site's root (`parentKey` `site:<siteId>`) or in a group (`sectionGroupId`,
 * `parentKey` `group:<groupId>`). `defaultSiteSpaceId` points at its default site space.
 */
export interface SiteSectionRecord extends StoredRecord {
  readonly id: string;
  readonly siteId: string;
  readonly organizationId: string;
  readonly title: string;
  readonly description?: string;
  readonly path: string;
  readonly condition?: string;
  readonly icon?: string;
  readonly sectionGroupId?: string;
  readonly defaultSiteSpaceId?: string;
  /** The space whose title the section took, added without one; gone once its title is set. */
  readonly titleOfSpace?: string;
  readonly parentKey: string;
  readonly orderKey: string;
  readonly createdAt: string;
}

/** A space on a site: at the site's root (`parentKey` `site:<siteId>`) or in a section (`parentKey` `section:<id>`). */
export interface SiteSpaceRecord extends StoredRecord {
  readonly id: string;
  readonly siteId: string;
  readonly organizationId: string;
  readonly spaceId: string;
  readonly sectionId?: string;
  readonly path: string;
  readonly condition?: string;
  readonly parentKey: string;
  readonly orderKey: string;
  readonly createdAt: string;
}

/** A lease on background work (leases.ts): its name is the id. */
export interface LeaseRecord {
  readonly id: string;
  /** Who holds it: one platform instance (a process). */
  readonly holder: string;
  /** When it lapses unless renewed (ISO 8601). */
  readonly until: string;
}

/**
 * Bytes in the blob store that no record references but that must stay until `until`: a PDF whose
 * download URL works until then (content/pdf/operation.ts). The id is the blob key. The blob collection
 * (blob-collection/) keeps held bytes and removes holds past `until`.
 */
export interface BlobHoldRecord extends StoredRecord {
  readonly id: string;
  /** What the bytes are: `pdf`. */
  readonly kind: 'pdf';
  /** When the hold ends (ISO 8601): the latest expiry of a URL handed out for the bytes. */
  readonly until: string;
}

/** The table of each kind of record. */
export const TABLES = {
  users: 'users',
  organizations: 'organizations',
  members: 'members',
  tokens: 'tokens',
  teams: 'teams',
  teamMembers: 'teamMembers',
  invites: 'invites',
  claims: 'claims',
  organizationDomains: 'organizationDomains',
  settings: 'settings',
  sites: 'sites',
  siteSectionGroups: 'siteSectionGroups',
  siteSections: 'siteSections',
  siteSpaces: 'siteSpaces',
  siteShareLinks: 'siteShareLinks',
  siteCustomizations: 'siteCustomizations',
  siteRedirects: 'siteRedirects',
  pageMoves: 'pageMoves',
  spaces: 'spaces',
  spaceGrants: 'spaceGrants',
  collections: 'collections',
  revisions: 'revisions',
  contentNodes: 'contentNodes',
  contentDocuments: 'contentDocuments',
  changeRequests: 'changeRequests',
  changeRequestReviewers: 'changeRequestReviewers',
  comments: 'comments',
  commentReplies: 'commentReplies',
  samlProviders: 'samlProviders',
  translations: 'translations',
  customFields: 'customFields',
  customFieldValues: 'customFieldValues',
  openAPISpecs: 'openAPISpecs',
  openAPISpecVersions: 'openAPISpecVersions',
  leases: 'leases',
  blobHolds: 'blobHolds',
  gitSyncs: 'gitSyncs',
} as const;

/** An index declared with the table it lists. */
export interface TableIndex extends IndexDefinition {
  readonly table: string;
}

/** Shorthand for an index definition. */
const index = (table: string, by: string, ...order: string[]): TableIndex => ({ table, by, order });

/** Shorthand for an index of every record of a table, in one group (listed with `value: null`). */
const wholeTable = (table: string, ...order: string[]): TableIndex => ({ table, order });

/** The indexes the core lists records by, each with its table: every list names one of them. */
export const INDEXES = {
  organizationsByHostname: index(TABLES.organizations, 'hostname'),
  usersByEmail: index(TABLES.users, 'email'),
  membersByOrganization: index(TABLES.members, 'organizationId', 'joinedAt'),
  membersByOrganizationLastSeen: index(TABLES.members, 'organizationId', 'lastSeenAt'),
  membersByUser: index(TABLES.members, 'userId', 'joinedAt'),
  tokensByUser: index(TABLES.tokens, 'userId', 'createdAt'),
  /** Members by role: the admins of an organization are a prefix's range of it. */
  membersByOrganizationRole: index(TABLES.members, 'organizationId', 'role', 'joinedAt'),
  teamsByOrganization: index(TABLES.teams, 'organizationId', 'createdAt'),
  teamMembersByTeam: index(TABLES.teamMembers, 'teamId', 'addedAt'),
  teamMembersByMember: index(TABLES.teamMembers, 'memberId', 'addedAt'),
  /** A member's teams by its role in them: the teams it owns are a prefix's range of it. */
  teamMembersByMemberRole: index(TABLES.teamMembers, 'memberId', 'role', 'addedAt'),
  invitesByOrganization: index(TABLES.invites, 'organizationId', 'createdAt'),
  /** A user's token claims: whether the user is still waiting for its first token. */
  claimsByUser: index(TABLES.claims, 'userId', 'createdAt'),
  organizationDomainsByDomain: index(TABLES.organizationDomains, 'domain'),
  spacesByOrganization: index(TABLES.spaces, 'organizationId', 'createdAt'),
  spaceGrantsByTeam: index(TABLES.spaceGrants, 'teamId', 'createdAt'),
  spaceGrantsBySpace: index(TABLES.spaceGrants, 'spaceId', 'createdAt'),
  spacesByParent: index(TABLES.spaces, 'parentKey', 'orderKey'),
  spacesInTrash: index(TABLES.spaces, 'trashed', 'deletedAt'),
  /** Every space, deleted ones too: the blob collection walks them all for the files they reference. */
  everySpace: wholeTable(TABLES.spaces),
  collectionsByOrganization: index(TABLES.collections, 'organizationId', 'createdAt'),
  collectionsByParent: index(TABLES.collections, 'parentKey', 'orderKey'),
  revisionsBySpace: index(TABLES.revisions, 'spaceId', 'createdAt'),
  contentNodesBySpace: index(TABLES.contentNodes, 'spaceId'),
  contentDocumentsBySpace: index(TABLES.contentDocuments, 'spaceId'),
  changeRequestsBySpace: index(TABLES.changeRequests, 'spaceId', 'number'),
  changeRequestReviewersByChangeRequest: index(TABLES.changeRequestReviewers, 'changeRequestId', 'createdAt'),
  changeRequestReviewersBySpace: index(TABLES.changeRequestReviewers, 'spaceId'),
  commentsBySpace: index(TABLES.comments, 'spaceId', 'postedAt'),
  commentsByList: index(TABLES.comments, 'listKey', 'postedAt'),
  commentsOpenByList: index(TABLES.comments, 'openKey', 'postedAt'),
  commentRepliesByComment: index(TABLES.commentReplies, 'commentId', 'postedAt'),
  commentRepliesBySpace: index(TABLES.commentReplies, 'spaceId'),
  samlProvidersByOrganization: index(TABLES.samlProviders, 'organizationId', 'createdAt'),
  samlProvidersByDefaultTeam: index(TABLES.samlProviders, 'defaultTeamId', 'createdAt'),
  translationsByOrganization: index(TABLES.translations, 'organizationId', 'createdAt'),
  customFieldsByOrganization: index(TABLES.customFields, 'organizationId', 'createdAt'),
  customFieldsByKey: index(TABLES.customFields, 'key'),
  customFieldValuesByField: index(TABLES.customFieldValues, 'fieldId'),
  customFieldValuesBySpace: index(TABLES.customFieldValues, 'spaceId'),
  sitesByOrganization: index(TABLES.sites, 'organizationId', 'createdAt'),
  sitesByHostname: index(TABLES.sites, 'hostname'),
  siteSectionGroupsBySite: index(TABLES.siteSectionGroups, 'siteId', 'createdAt'),
  siteSectionGroupsByParent: index(TABLES.siteSectionGroups, 'parentKey', 'orderKey'),
  siteSectionsBySite: index(TABLES.siteSections, 'siteId', 'createdAt'),
  siteSectionsByParent: index(TABLES.siteSections, 'parentKey', 'orderKey'),
  siteSpacesBySite: index(TABLES.siteSpaces, 'siteId', 'createdAt'),
  siteSpacesByParent: index(TABLES.siteSpaces, 'parentKey', 'orderKey'),
  siteSpacesBySpace: index(TABLES.siteSpaces, 'spaceId', 'createdAt'),
  siteShareLinksBySite: index(TABLES.siteShareLinks, 'siteId', 'createdAt'),
  siteRedirectsBySite: index(TABLES.siteRedirects, 'siteId', 'createdAt'),
  /** A site's redirect from a source, live or draft: at most one. */
  siteRedirectsBySource: index(TABLES.siteRedirects, 'sourceKey'),
  siteRedirectsByCreated: index(TABLES.siteRedirects, 'listKey', 'createdAt'),
  siteRedirectsByTouched: index(TABLES.siteRedirects, 'listKey', 'touchedAt'),
  siteRedirectsBySourceOrder: index(TABLES.siteRedirects, 'listKey', 'source'),
  /** A site's live redirects whose source ends with `*`. */
  siteRedirectsWildcards: index(TABLES.siteRedirects, 'wildcardSite', 'source'),
  pageMovesBySpace: index(TABLES.pageMoves, 'spaceId'),
  /** Every site: the upgrade of earlier versions' share keys walks them once (sites/share-links/upgrade.ts). */
  everySite: wholeTable(TABLES.sites),
  openAPISpecsByOrganization: index(TABLES.openAPISpecs, 'organizationId', 'createdAt'),
  openAPISpecsByKey: index(TABLES.openAPISpecs, 'key'),
  openAPISpecVersionsBySpec: index(TABLES.openAPISpecVersions, 'specId', 'number'),
  /** The versions whose document is a blob: whether the blob collection may remove one. */
  openAPISpecVersionsByDocument: index(TABLES.openAPISpecVersions, 'documentKey'),
  /** Holds on blobs by kind, soonest end first: the holds past their end are a prefix. */
  blobHoldsByKind: index(TABLES.blobHolds, 'kind', 'until'),
} as const;

/** Every table and the indexes declared on it: what a store is opened with (see StoreSchema). */
export const STORE_SCHEMA: StoreSchema = Object.fromEntries(
  Object.values(TABLES).map((table) => [table, Object.values(INDEXES).filter((declared) => declared.table === table)]),
);

/** The id of a member record. */
export const memberId = (organizationId: string, userId: string) => `${organizationId}/${userId}`;
/** The id of the record of a user asked to review a change request. */
export const changeRequestReviewerId = (changeRequestId: string, userId: string) => `${changeRequestId}/${userId}`;
/** The id of a team member record. */
export const teamMemberId = (teamId: string, userId: string) => `${teamId}/${userId}`;
/** The id of the record holding a space's value of a custom field. */
export const customFieldValueId = (spaceId: string, fieldId: string) => `${spaceId}/${fieldId}`;
