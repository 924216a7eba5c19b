import { route } from '../operation.js';
import { getSiteAdaptiveSchema, updateSiteAdaptiveSchema } from './adaptive/operations.js';
import { getSiteCustomization, updateSiteCustomization } from './customization/operations.js';
import { getPublishedContentSite } from './published/read.js';
import { bulkUpsertSiteRedirects } from './redirects/bulk.js';
import { createSiteRedirect, deleteSiteRedirect, getSiteRedirectBySource, listSiteRedirects, updateSiteRedirect } from './redirects/operations.js';
import { getSitePublishingAuth, regenerateSitePublishingAuth, updateSitePublishingAuth } from './publishing-auth/operations.js';
import { createSiteShareLink, deleteSiteShareLink, listSiteShareLinks, updateSiteShareLink } from './share-links/operations.js';
import { addSectionGroupToSite } from './section-groups/add.js';
import { deleteSiteSectionGroup } from './section-groups/delete.js';
import { moveSiteSectionGroup } from './section-groups/move.js';
import { listSiteSectionGroups } from './section-groups/read.js';
import { addSectionToGroup, removeSectionFromGroup } from './section-groups/sections.js';
import { updateSiteSectionGroup } from './section-groups/update.js';
import { addSectionToSite } from './sections/add.js';
import { deleteSiteSection } from './sections/delete.js';
import { moveSiteSection } from './sections/move.js';
import { listSiteSections } from './sections/read.js';
import { updateSiteSection } from './sections/update.js';
import { addSpaceToSite } from './site-spaces/add.js';
import { deleteSiteSpace } from './site-spaces/delete.js';
import { moveSiteSpace } from './site-spaces/move.js';
import { listSiteSpaces } from './site-spaces/read.js';
import { updateSiteSpace } from './site-spaces/update.js';
import { createSite } from './sites/create.js';
import { deleteSite } from './sites/delete.js';
import { publishSite, unpublishSite } from './sites/publish.js';
import { getSite, listSites } from './sites/read.js';
import { updateSite } from './sites/update.js';

const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

/** The API path of a share link just created, for its Location header (a share link has no `urls.location`). */
const shareLinkLocation = (input: { organizationId: string; siteId: string }, result: { id: string }) =>
  `/orgs/${input.organizationId}/sites/${input.siteId}/share-links/${result.id}`;

/**
 * The site endpoints: sites, their adaptive schema and published content, share links, customization,
 * redirects and publishing auth, sections, section groups and site spaces.
 */
export const siteRoutes = [
  route('GET', '/v1/orgs/{organizationId}/sites', listSites, 200),
  route('POST', '/v1/orgs/{organizationId}/sites', createSite, 201),
  route('GET', SITE, getSite, 200),
  route('PATCH', SITE, updateSite, 200),
  route('DELETE', SITE, deleteSite, 205),
  // Not in the specification ("endpoints that publish or unpublish a site are not shown"); the public API's.
  route('POST', `${SITE}/publish`, publishSite, 200, { extension: true }),
  route('POST', `${SITE}/unpublish`, unpublishSite, 200, { extension: true }),
  route('GET', `${SITE}/adaptive-schema`, getSiteAdaptiveSchema, 200),
  route('PUT', `${SITE}/adaptive-schema`, updateSiteAdaptiveSchema, 200),
  route('GET', `${SITE}/published`, getPublishedContentSite, 200),
  // Not in the specification (which does not say where a share key or a visitor token's key comes from, nor how a
  // site's look is changed): the public API's.
  route('GET', `${SITE}/share-links`, listSiteShareLinks, 200, { extension: true }),
  route('POST', `${SITE}/share-links`, createSiteShareLink, 201, { extension: true, location: shareLinkLocation }),
  route('PATCH', `${SITE}/share-links/{shareLinkId}`, updateSiteShareLink, 200, { extension: true }),
  route('DELETE', `${SITE}/share-links/{shareLinkId}`, deleteSiteShareLink, 205, { extension: true }),
  route('GET', `${SITE}/customization`, getSiteCustomization, 200, { extension: true }),
  route('PUT', `${SITE}/customization`, updateSiteCustomization, 200, { extension: true }),
  route('GET', `${SITE}/redirects`, listSiteRedirects, 200, { extension: true }),
  route('POST', `${SITE}/redirects`, createSiteRedirect, 201, { extension: true }),
  route('PUT', `${SITE}/redirects`, bulkUpsertSiteRedirects, 200, { extension: true }),
  route('PATCH', `${SITE}/redirects/{siteRedirectId}`, updateSiteRedirect, 200, { extension: true }),
  route('DELETE', `${SITE}/redirects/{siteRedirectId}`, deleteSiteRedirect, 205, { extension: true }),
  route('GET', `${SITE}/redirect`, getSiteRedirectBySource, 200, { extension: true }),
  route('GET', `${SITE}/publishing/auth`, getSitePublishingAuth, 200, { extension: true }),
  route('PATCH', `${SITE}/publishing/auth`, updateSitePublishingAuth, 200, { extension: true }),
  route('POST', `${SITE}/publishing/auth/regenerate`, regenerateSitePublishingAuth, 200, { extension: true }),
  route('GET', `${SITE}/sections`, listSiteSections, 200),
  route('POST', `${SITE}/sections`, addSectionToSite, 201),
  route('PATCH', `${SITE}/sections/{siteSectionId}`, updateSiteSection, 200),
  route('DELETE', `${SITE}/sections/{siteSectionId}`, deleteSiteSection, 205),
  route('POST', `${SITE}/sections/{siteSectionId}/move`, moveSiteSection, 200),
  route('GET', `${SITE}/section-groups`, listSiteSectionGroups, 200),
  route('POST', `${SITE}/section-groups`, addSectionGroupToSite, 201),
  route('PATCH', `${SITE}/section-groups/{siteSectionGroupId}`, updateSiteSectionGroup, 200),
  route('DELETE', `${SITE}/section-groups/{siteSectionGroupId}`, deleteSiteSectionGroup, 205),
  route('POST', `${SITE}/section-groups/{siteSectionGroupId}/sections`, addSectionToGroup, 201),
  route('DELETE', `${SITE}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}`, removeSectionFromGroup, 205),
  route('POST', `${SITE}/section-groups/{siteSectionGroupId}/move`, moveSiteSectionGroup, 200),
  route('GET', `${SITE}/site-spaces`, listSiteSpaces, 200),
  route('POST', `${SITE}/site-spaces`, addSpaceToSite, 201),
  route('PATCH', `${SITE}/site-spaces/{siteSpaceId}`, updateSiteSpace, 200),
  route('DELETE', `${SITE}/site-spaces/{siteSpaceId}`, deleteSiteSpace, 205),
  route('POST', `${SITE}/site-spaces/{siteSpaceId}/move`, moveSiteSpace, 200),
];
