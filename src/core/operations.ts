import { redeemClaim } from './claims/redeem-claim.js';
import { inviteUsersToOrganization } from './invites/invite-by-email.js';
import { createInvite, deleteInvite, getInvite, joinOrganization, listInvites, updateInvite } from './invites/operations.js';
import { getMember } from './members/get.js';
import { listMembers } from './members/list.js';
import { pingOrganization } from './members/ping.js';
import { removeMember } from './members/remove.js';
import { setMemberSso, updateMember } from './members/update.js';
import { getOrganization, listOrganizations, listOrganizationsForEmailDomain } from './organizations/read.js';
import { updateOrganization } from './organizations/update.js';
import { listTeams } from './teams/list.js';
import { createTeam, deleteTeam, getTeam, updateTeam } from './teams/manage.js';
import { addTeamMember, listMemberTeams, listTeamMembers, removeTeamMember, updateTeamMembers } from './teams/members.js';
import { getAuthenticatedUser } from './users/routes.js';
import { createUserToken, listUserTokens, revokeUserToken } from './tokens/user-tokens.js';
import { createChangeRequest } from './change-requests/create.js';
import { getChangeRequest, listChangeRequests } from './change-requests/read.js';
import { updateChangeRequest } from './change-requests/update.js';
import { listRequestedReviewers, removeRequestedReviewer, requestReviewers } from './change-requests/reviewers.js';
import { updateChangeRequestContent } from './content/author/operation.js';
import { downloadFile } from './content/downloads.js';
import { getChangeRequestPDF } from './content/pdf/operation.js';
import { importContent, importContentInChangeRequest } from './content/import/operation.js';
import { exportToGitRepository } from './git-sync/export-repository.js';
import { getSpaceGitInfo } from './git-sync/git-info.js';
import { importGitRepository } from './git-sync/import-repository.js';
import { listChangeRequestFileBacklinks, listSpaceFileBacklinks } from './content/links/backlinks.js';
import { listPageLinksInChangeRequest, listPageLinksInSpace, listSpaceLinks } from './content/links/list.js';
import {
  getChangeRequestContent,
  getChangeRequestFile,
  getChangeRequestPage,
  getChangeRequestPageByPath,
  getSpaceContent,
  getRevisionById,
  getSpaceFile,
  getSpacePage,
  getSpacePageByPath,
  listChangeRequestFiles,
  listChangeRequestPages,
  listSpaceFiles,
  listSpacePages,
} from './content/read.js';
import { createSpace } from './spaces/create.js';
import { duplicateSpace } from './spaces/duplicate.js';
import { deleteSpace, restoreSpace } from './spaces/lifecycle.js';
import { listMemberSpaces } from './spaces/member-spaces.js';
import { moveSpace, transferSpace } from './spaces/move.js';
import { getSpace, listSpaces } from './spaces/read.js';
import { updateSpace } from './spaces/update.js';
import { mergeChangeRequest } from './change-requests/merge/merge.js';
import { rebaseChangeRequest } from './change-requests/merge/rebase.js';
import { createCollection } from './collections/create.js';
import { deleteCollection } from './collections/delete.js';
import { moveCollection, transferCollection } from './collections/move.js';
import { getCollection, listCollectionSpaces, listCollections } from './collections/read.js';
import { updateCollection } from './collections/update.js';
import { listSsoLogins } from './sso/logins.js';
import { getSamlProvider, listSamlProviders } from './sso/read.js';
import { createSamlProvider, deleteSamlProvider, updateSamlProvider } from './sso/write.js';
import { createTranslation, deleteTranslation, getTranslation, listTranslations, updateTranslation } from './translations/operations.js';
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField } from './custom-fields/fields.js';
import { getSpaceCustomFields, updateSpaceCustomFields } from './custom-fields/values.js';
import { createOpenAPISpec, deleteOpenAPISpec, getOpenAPISpec, listOpenAPISpecs, putOpenAPISpec } from './openapi-specs/specs.js';
import {
  getLatestOpenAPISpecVersion,
  getLatestOpenAPISpecVersionContent,
  getOpenAPISpecVersion,
  getOpenAPISpecVersionContent,
  getOpenAPISpecVersionDocument,
  listOpenAPISpecVersions,
} from './openapi-specs/versions.js';
import { getSiteAdaptiveSchema, updateSiteAdaptiveSchema } from './sites/adaptive/operations.js';
import { getSiteCustomization, updateSiteCustomization } from './sites/customization/operations.js';
import { getPublishedContentSite } from './sites/published/read.js';
import { bulkUpsertSiteRedirects } from './sites/redirects/bulk.js';
import { createSiteRedirect, deleteSiteRedirect, getSiteRedirectBySource, listSiteRedirects, updateSiteRedirect } from './sites/redirects/operations.js';
import { getSitePublishingAuth, regenerateSitePublishingAuth, updateSitePublishingAuth } from './sites/publishing-auth/operations.js';
import { createSiteShareLink, deleteSiteShareLink, listSiteShareLinks, updateSiteShareLink } from './sites/share-links/operations.js';
import { addSectionGroupToSite } from './sites/section-groups/add.js';
import { deleteSiteSectionGroup } from './sites/section-groups/delete.js';
import { moveSiteSectionGroup } from './sites/section-groups/move.js';
import { listSiteSectionGroups } from './sites/section-groups/read.js';
import { addSectionToGroup, removeSectionFromGroup } from './sites/section-groups/sections.js';
import { updateSiteSectionGroup } from './sites/section-groups/update.js';
import { addSectionToSite } from './sites/sections/add.js';
import { deleteSiteSection } from './sites/sections/delete.js';
import { moveSiteSection } from './sites/sections/move.js';
import { listSiteSections } from './sites/sections/read.js';
import { updateSiteSection } from './sites/sections/update.js';
import { addSpaceToSite } from './sites/site-spaces/add.js';
import { deleteSiteSpace } from './sites/site-spaces/delete.js';
import { moveSiteSpace } from './sites/site-spaces/move.js';
import { listSiteSpaces } from './sites/site-spaces/read.js';
import { updateSiteSpace } from './sites/site-spaces/update.js';
import { createSite } from './sites/sites/create.js';
import { deleteSite } from './sites/sites/delete.js';
import { publishSite, unpublishSite } from './sites/sites/publish.js';
import { getSite, listSites } from './sites/sites/read.js';
import { updateSite } from './sites/sites/update.js';
import {
  deleteCommentInSpace,
  deleteCommentReplyInSpace,
  getCommentInSpace,
  getCommentReplyInSpace,
  listCommentRepliesInSpace,
  listCommentsInSpace,
  postCommentInSpace,
  postCommentReplyInSpace,
  updateCommentInSpace,
  updateCommentReplyInSpace,
} from './comments/space-operations.js';
import {
  deleteCommentInChangeRequest,
  deleteCommentReplyInChangeRequest,
  getCommentInChangeRequest,
  getCommentReplyInChangeRequest,
  listCommentRepliesInChangeRequest,
  listCommentsInChangeRequest,
  postCommentInChangeRequest,
  postCommentReplyInChangeRequest,
  updateCommentInChangeRequest,
  updateCommentReplyInChangeRequest,
} from './comments/change-request-operations.js';
import { searchOrganizationContent } from './search/organization.js';
import { searchSpaceContent } from './search/space.js';

/** Every operation of the platform by name: the methods of `platform.as(user)`. */
export const operations = {
  listOrganizations,
  getOrganization,
  updateOrganization,
  listOrganizationsForEmailDomain,
  createInvite,
  listInvites,
  getInvite,
  updateInvite,
  deleteInvite,
  joinOrganization,
  inviteUsersToOrganization,
  redeemClaim,
  listMembers,
  getMember,
  updateMember,
  removeMember,
  setMemberSso,
  pingOrganization,
  listTeams,
  createTeam,
  getTeam,
  updateTeam,
  deleteTeam,
  listTeamMembers,
  updateTeamMembers,
  addTeamMember,
  removeTeamMember,
  listMemberTeams,
  getAuthenticatedUser,
  listUserTokens,
  createUserToken,
  revokeUserToken,
  listSpaces,
  createSpace,
  getSpace,
  updateSpace,
  deleteSpace,
  restoreSpace,
  duplicateSpace,
  moveSpace,
  transferSpace,
  listChangeRequests,
  createChangeRequest,
  getChangeRequest,
  updateChangeRequest,
  listRequestedReviewers,
  requestReviewers,
  removeRequestedReviewer,
  getSpaceContent,
  getRevisionById,
  listSpacePages,
  listSpaceFiles,
  getSpaceFile,
  getSpacePage,
  getSpacePageByPath,
  getChangeRequestContent,
  listChangeRequestPages,
  listChangeRequestFiles,
  getChangeRequestFile,
  getChangeRequestPage,
  getChangeRequestPageByPath,
  updateChangeRequestContent,
  downloadFile,
  getChangeRequestPDF,
  importContent,
  importContentInChangeRequest,
  importGitRepository,
  exportToGitRepository,
  getSpaceGitInfo,
  listSpaceLinks,
  listPageLinksInSpace,
  listPageLinksInChangeRequest,
  listSpaceFileBacklinks,
  listChangeRequestFileBacklinks,
  mergeChangeRequest,
  rebaseChangeRequest,
  listMemberSpaces,
  listCollections,
  createCollection,
  getCollection,
  updateCollection,
  deleteCollection,
  listCollectionSpaces,
  moveCollection,
  transferCollection,
  listSamlProviders,
  createSamlProvider,
  getSamlProvider,
  updateSamlProvider,
  deleteSamlProvider,
  listSsoLogins,
  listTranslations,
  createTranslation,
  getTranslation,
  updateTranslation,
  deleteTranslation,
  listCustomFields,
  createCustomField,
  getCustomField,
  updateCustomField,
  deleteCustomField,
  getSpaceCustomFields,
  updateSpaceCustomFields,
  listOpenAPISpecs,
  createOpenAPISpec,
  getOpenAPISpec,
  putOpenAPISpec,
  deleteOpenAPISpec,
  listOpenAPISpecVersions,
  getLatestOpenAPISpecVersion,
  getLatestOpenAPISpecVersionContent,
  getOpenAPISpecVersion,
  getOpenAPISpecVersionContent,
  getOpenAPISpecVersionDocument,
  listSites,
  createSite,
  getSite,
  updateSite,
  deleteSite,
  publishSite,
  unpublishSite,
  getSiteAdaptiveSchema,
  updateSiteAdaptiveSchema,
  getPublishedContentSite,
  getSiteCustomization,
  updateSiteCustomization,
  listSiteShareLinks,
  createSiteShareLink,
  updateSiteShareLink,
  deleteSiteShareLink,
  listSiteRedirects,
  createSiteRedirect,
  bulkUpsertSiteRedirects,
  updateSiteRedirect,
  deleteSiteRedirect,
  getSiteRedirectBySource,
  getSitePublishingAuth,
  updateSitePublishingAuth,
  regenerateSitePublishingAuth,
  listSiteSections,
  addSectionToSite,
  updateSiteSection,
  deleteSiteSection,
  moveSiteSection,
  listSiteSectionGroups,
  addSectionGroupToSite,
  updateSiteSectionGroup,
  deleteSiteSectionGroup,
  addSectionToGroup,
  removeSectionFromGroup,
  moveSiteSectionGroup,
  listSiteSpaces,
  addSpaceToSite,
  updateSiteSpace,
  deleteSiteSpace,
  moveSiteSpace,
  listCommentsInSpace,
  postCommentInSpace,
  getCommentInSpace,
  updateCommentInSpace,
  deleteCommentInSpace,
  listCommentRepliesInSpace,
  postCommentReplyInSpace,
  getCommentReplyInSpace,
  updateCommentReplyInSpace,
  deleteCommentReplyInSpace,
  listCommentsInChangeRequest,
  postCommentInChangeRequest,
  getCommentInChangeRequest,
  updateCommentInChangeRequest,
  deleteCommentInChangeRequest,
  listCommentRepliesInChangeRequest,
  postCommentReplyInChangeRequest,
  getCommentReplyInChangeRequest,
  updateCommentReplyInChangeRequest,
  deleteCommentReplyInChangeRequest,
  searchSpaceContent,
  searchOrganizationContent,
};

/** The operations by name. */
export type Operations = typeof operations;
