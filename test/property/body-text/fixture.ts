import { expect } from 'vitest';
import { createMemoryBlobStore } from '../../../src/core/blobs.js';
import type { TablesData } from '../../../src/store/engine.js';
import { authoring, md } from '../../http/authoring.js';
import { createHarness, type Harness } from '../../http/harness.js';
import { PETSTORE_31 } from '../../http/openapi-sources.js';
import { BETA_SCHEMA, DEFAULT_CUSTOMIZATION, siteHelpers } from '../../http/site-helpers.js';
import { inspectableStore } from '../../store/inspectable-store.js';

/** One valid request with a JSON body: every route with a body has at least one. */
export interface BodyRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** The state every request starts from, and what it takes to reach it again. */
export interface Fixture {
  /** Every table of the store once the state is built. */
  readonly tables: TablesData;
  /** The time the state was built at: every run's clock starts there. */
  readonly now: string;
  /** The owner's token: an admin of both organizations. */
  readonly token: string;
  readonly blobs: ReturnType<typeof createMemoryBlobStore>;
  readonly requests: readonly BodyRequest[];
}

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIC8DCCAdigAwIBAgIQ\n-----END CERTIFICATE-----';

/** The outbound HTTP of imports and OpenAPI sources: two documents, and a 404 for anything else. Never the network. */
export const offlineFetch = async (url: string | URL | Request): Promise<Response> => {
  const href = typeof url === 'string' ? url : url instanceof URL ? url.href : url.url;
  if (href === 'https://source.test/page.md') return new Response('# Imported\n\nHello.', { headers: { 'content-type': 'text/markdown' } });
  if (href === 'https://source.test/openapi.json') return new Response(JSON.stringify(PETSTORE_31), { headers: { 'content-type': 'application/json' } });
  return new Response('not here', { status: 404 });
};

/**
 * Builds, through the API, a state in which each request of the list succeeds on its own: an organization
 * with a second one, members, a team, an invite link, SSO, translations, custom fields, an OpenAPI spec,
 * collections, spaces with a change request, pages and comments, a site with sections, a group and site
 * spaces. Each run of the property starts again from this state, so requests cannot disturb each other.
 */
export async function buildFixture(): Promise<Fixture> {
  const store = inspectableStore();
  const blobs = createMemoryBlobStore();
  const h: Harness = await createHarness('fetch', { store, blobs, fetch: offlineFetch });
  try {
    return { ...(await build(h)), tables: store.tables(), now: h.clock.now().toISOString(), token: h.owner.token, blobs };
  } finally {
    await h.close();
  }
}

async function build(h: Harness) {
  const a = authoring(() => h);
  const s = siteHelpers(() => h);
  const { owner, organizationId: org } = h;
  const orgPath = `/v1/orgs/${org}`;
  const ok = async (response: Promise<{ status: number; text: string; body: any }>, status = 200) => {
    const answer = await response;
    expect(answer.status, answer.text).toBe(status);
    return answer.body;
  };

  // The owner of the harness is reused by its e-mail address: an admin of the second organization too.
  const second = await h.platform.initialize({ title: 'Second', email: owner.email });
  const member = await h.user('edit');
  const reviewer = await h.user('review');
  await ok(owner.patch(orgPath, { inviteLinks: true }));
  const invite = await ok(owner.post(`${orgPath}/link-invites`, { role: 'read' }), 201);
  const invited = await ok(owner.post(`${orgPath}/invites`, { emails: ['claimant@acme.test'], role: 'read' }));
  const claimCode = (invited.claims[0].url as string).split('/').pop();
  const team = await ok(owner.put(`${orgPath}/teams`, { title: 'Writers', members: [member.userId] }), 201);
  const provider = await ok(owner.post(`${orgPath}/saml`, { label: 'Okta' }), 201);
  const translation = await ok(owner.post(`${orgPath}/translations`, { title: 'French', languages: ['fr'] }), 201);
  await ok(owner.post(`${orgPath}/custom-fields`, { name: 'audience', type: 'text' }), 201);
  await ok(owner.post(`${orgPath}/openapi`, { slug: 'pets', source: { text: JSON.stringify(PETSTORE_31) } }), 201);
  const collection = await s.collection({ title: 'Guides' });
  const otherCollection = await s.collection({ title: 'Reference' });

  const space = await a.space({ title: 'Docs' });
  const otherSpace = await a.space({ title: 'API' });
  const cr = await a.changeRequest(space.id, { subject: 'First' });
  const edited = await a.batch(space.id, cr.id, [{ operation: 'insert_page', title: 'Welcome', document: md('Hello **there**.') }]);
  await a.moveSpaceTo(space.id, edited.revision);
  const [page] = await a.pages(space.id);
  const openCr = await a.changeRequest(space.id, { subject: 'Second' });
  const comments = `/v1/spaces/${space.id}/comments`;
  const comment = await ok(owner.post(comments, { body: md('A comment'), page: page.id }));
  const reply = await ok(owner.post(`${comments}/${comment.id}/replies`, { body: md('A reply') }));
  const crComments = `${a.changeRequestPath(space.id, openCr.id)}/comments`;
  const crComment = await ok(owner.post(crComments, { body: md('On the request') }));
  const crReply = await ok(owner.post(`${crComments}/${crComment.id}/replies`, { body: md('Agreed') }));

  const [siteSpaceA, siteSpaceB, sectionSpace, groupSpace] = await s.spaces('Site A', 'Site B', 'Section space', 'Group space');
  const site = await s.createSite({ title: 'Handbook', spaces: [siteSpaceA, siteSpaceB] });
  const sitePath = s.site(site.id);
  await s.setSchema(site.id, BETA_SCHEMA);
  const first = await s.addSection(site.id, sectionSpace, 'First');
  const grouped = await s.addSection(site.id, groupSpace, 'Grouped');
  const sections = (await ok(owner.get(`${sitePath}/sections`))).items as { id: string }[];
  // The site's spaces went into a section of their own when the first section was added.
  const other = sections.find((section) => section.id !== first.id && section.id !== grouped.id)!;
  const group = await s.addGroup(site.id, { title: 'Group', sections: [grouped.id] });
  // Published, so that presenting the site and its parts makes their published URLs from their paths.
  await ok(owner.post(`${sitePath}/publish`));
  const siteSpaces = (await ok(owner.get(`${sitePath}/site-spaces`))).items as { id: string }[];
  const [siteSpace, otherSiteSpace] = siteSpaces;
  const shareLink = await ok(owner.post(`${sitePath}/share-links`, { name: 'Readers' }), 201);
  const redirect = await ok(owner.post(`${sitePath}/redirects`, { source: '/old', destination: { kind: 'external', url: 'https://acme.test/new' } }), 201);
  const spaceRef = (id: string) => ({ type: 'space', space: id });
  const spacePath = `/v1/spaces/${space.id}`;
  const openCrPath = a.changeRequestPath(space.id, openCr.id);

  const requests: BodyRequest[] = [
    { method: 'PATCH', path: orgPath, body: { title: 'Acme', emailDomains: ['acme.test'], defaultRole: 'read', logo: 'https://acme.test/logo.png', sso: true, ai: false, inviteLinks: true } },
    { method: 'POST', path: `${orgPath}/link-invites`, body: { role: 'comment' } },
    { method: 'POST', path: '/v1/user/tokens', body: { label: 'Laptop' } },
    { method: 'PATCH', path: `${orgPath}/link-invites/${invite.id}`, body: { role: 'edit' } },
    { method: 'POST', path: `${orgPath}/invites`, body: { emails: ['ann@acme.test', { email: 'bob@acme.test', role: 'edit' }], role: 'comment', sso: false } },
    { method: 'POST', path: `/v1/claims/${claimCode}`, body: { label: 'Laptop' } },
    { method: 'PATCH', path: `${orgPath}/members/${member.userId}`, body: { role: 'review' } },
    { method: 'PUT', path: `${orgPath}/teams`, body: { title: 'Editors', members: [member.userId] } },
    { method: 'PATCH', path: `${orgPath}/teams/${team.id}`, body: { title: 'Authors' } },
    { method: 'PUT', path: `${orgPath}/teams/${team.id}/members`, body: { add: [member.email], remove: [], memberships: { [member.userId]: { role: 'owner' } } } },
    { method: 'PUT', path: `${orgPath}/teams/${team.id}/members/${member.userId}`, body: { role: 'owner' } },
    { method: 'POST', path: `${orgPath}/spaces`, body: { title: 'New space', emoji: '1f600', parent: collection.id, editMode: 'live' } },
    { method: 'PATCH', path: spacePath, body: { title: 'Docs 2', emoji: '1f4d6', editMode: 'live', defaultLevel: 'read', visibility: 'public' } },
    { method: 'POST', path: `${spacePath}/move`, body: { position: { after: spaceRef(otherSpace.id) } } },
    { method: 'POST', path: `/v1/spaces/${otherSpace.id}/transfer`, body: { organization: second.organizationId } },
    { method: 'POST', path: `${spacePath}/change-requests`, body: { subject: 'Another' } },
    { method: 'PATCH', path: openCrPath, body: { subject: 'Renamed', status: 'open' } },
    { method: 'POST', path: `${openCrPath}/requested-reviewers`, body: { users: [reviewer.userId], subject: 'Please review' } },
    {
      method: 'POST',
      path: `${openCrPath}/content`,
      body: { changes: [{ operation: 'insert_page', title: 'Guide', document: md('# Guide\n\nText with a [link](https://example.test).') }] },
    },
    { method: 'POST', path: `${spacePath}/content/import`, body: { url: 'https://source.test/page.md', source: 'markdown' } },
    { method: 'POST', path: `${openCrPath}/content/import`, body: { url: 'https://source.test/page.md', source: 'markdown' } },
    // Answered 204 whatever the repository: an unreachable one is a failure in git/info.
    { method: 'POST', path: `${spacePath}/git/import`, body: { url: 'https://git.test/docs.git', ref: 'refs/heads/main', repoProjectDirectory: 'docs' } },
    { method: 'POST', path: `${spacePath}/git/export`, body: { url: 'https://git.test/docs.git', ref: 'refs/heads/main', commitMessage: 'Docs', repoProjectDirectory: 'docs' } },
    { method: 'POST', path: `${orgPath}/collections`, body: { title: 'More', parent: collection.id } },
    { method: 'PATCH', path: `/v1/collections/${collection.id}`, body: { title: 'Guides 2', description: 'All the guides', defaultLevel: 'read' } },
    { method: 'POST', path: `/v1/collections/${collection.id}/move`, body: { position: { after: { type: 'collection', collection: otherCollection.id } } } },
    { method: 'POST', path: `/v1/collections/${otherCollection.id}/transfer`, body: { organization: second.organizationId } },
    {
      method: 'POST',
      path: `${orgPath}/saml`,
      body: { label: 'Azure', entityID: 'https://idp.test/entity', certificate: CERTIFICATE, ssoURL: 'https://idp.test/sso', defaultTeam: team.id, defaultRole: 'read' },
    },
    { method: 'PATCH', path: `${orgPath}/saml/${provider.id}`, body: { label: 'Okta 2', entityID: 'https://idp.test/e', certificate: CERTIFICATE, ssoURL: 'https://idp.test/s' } },
    { method: 'POST', path: `${orgPath}/translations`, body: { title: 'German', languages: ['de', 'pt-br'] } },
    { method: 'PUT', path: `${orgPath}/translations/${translation.id}`, body: { title: 'French 2', languages: ['fr'] } },
    { method: 'PATCH', path: `${spacePath}/custom-fields`, body: { values: { audience: { value: 'developers' } } } },
    { method: 'POST', path: `${orgPath}/custom-fields`, body: { name: 'team', type: 'text', title: 'Team', description: 'Who owns it', placeholder: 'A team' } },
    { method: 'PATCH', path: `${orgPath}/custom-fields/audience`, body: { title: 'Audience', description: 'Who reads it', placeholder: 'Readers' } },
    { method: 'POST', path: `${orgPath}/openapi`, body: { slug: 'petstore', source: { url: 'https://source.test/openapi.json' } } },
    { method: 'PUT', path: `${orgPath}/openapi/pets`, body: { source: { text: JSON.stringify(PETSTORE_31) } } },
    { method: 'POST', path: `${orgPath}/sites`, body: { type: 'premium', title: 'Portal', visibility: 'unlisted', spaces: [otherSpace.id] } },
    {
      method: 'PATCH',
      path: sitePath,
      body: { title: 'Handbook 2', visibility: 'share-link', basename: 'handbook', adaptiveContent: { enabled: true }, proxy: 'docs.localhost/x', hostname: 'docs.acme.example' },
    },
    { method: 'PUT', path: `${sitePath}/adaptive-schema`, body: { jsonSchema: BETA_SCHEMA } },
    { method: 'POST', path: `${sitePath}/share-links`, body: { name: 'Reviewers' } },
    {
      method: 'PUT',
      path: `${sitePath}/customization`,
      body: {
        ...DEFAULT_CUSTOMIZATION,
        title: 'Acme Handbook',
        favicon: { emoji: '📘' },
        header: { preset: 'default', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://acme.test/blog' }, links: [], condition: 'visitor.claims.isBeta' }] },
        footer: { groups: [{ title: 'More', links: [{ title: 'Home', to: { kind: 'page', page: page.id, space: space.id } }] }], copyright: '© Acme' },
        announcement: { enabled: true, message: 'New release', style: 'info' },
      },
    },
    { method: 'PATCH', path: `${sitePath}/publishing/auth`, body: { backend: 'custom', fallbackURL: 'https://auth.acme.test/login', logoutURL: null } },
    { method: 'PATCH', path: `${sitePath}/share-links/${shareLink.id}`, body: { name: 'Partners', active: false } },
    { method: 'POST', path: `${sitePath}/redirects`, body: { source: '/guides/*', destination: { kind: 'site-section', siteSectionId: first.id }, captureWildcard: true } },
    {
      method: 'PUT',
      path: `${sitePath}/redirects`,
      body: { redirects: [{ source: '/a', destination: { kind: 'external', url: 'https://acme.test/a' } }, { source: '/old', intent: 'draft', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }] },
    },
    { method: 'PATCH', path: `${sitePath}/redirects/${redirect.id}`, body: { source: '/older', permanent: true } },
    { method: 'POST', path: `${sitePath}/sections`, body: { spaceId: otherSpace.id, title: 'Another' } },
    {
      method: 'PATCH',
      path: `${sitePath}/sections/${first.id}`,
      body: { title: 'First 2', path: 'first-2', condition: 'visitor.claims.isBeta', icon: 'book-open', description: 'The first section' },
    },
    { method: 'POST', path: `${sitePath}/sections/${first.id}/move`, body: { position: { before: { type: 'site-section', siteSection: other.id } } } },
    { method: 'POST', path: `${sitePath}/section-groups`, body: { title: 'Group 2', icon: 'gear', sections: [other.id] } },
    { method: 'PATCH', path: `${sitePath}/section-groups/${group.id}`, body: { title: 'Group 3', icon: 'gear' } },
    { method: 'POST', path: `${sitePath}/section-groups/${group.id}/sections`, body: { sectionId: other.id } },
    { method: 'POST', path: `${sitePath}/section-groups/${group.id}/move`, body: { position: { before: { type: 'site-section', id: other.id } } } },
    { method: 'POST', path: `${sitePath}/site-spaces`, body: { spaceId: otherSpace.id, sectionId: first.id } },
    { method: 'PATCH', path: `${sitePath}/site-spaces/${siteSpace.id}`, body: { path: 'space-a', condition: 'visitor.claims.isStaff' } },
    { method: 'POST', path: `${sitePath}/site-spaces/${siteSpace.id}/move`, body: { position: { after: { type: 'site-space', siteSpace: otherSiteSpace.id } } } },
    { method: 'POST', path: comments, body: { body: md('New *comment*'), page: page.id } },
    { method: 'PUT', path: `${comments}/${comment.id}`, body: { resolved: false, body: md('Edited'), addedReactions: ['1f389'], removedReactions: [] } },
    { method: 'POST', path: `${comments}/${comment.id}/replies`, body: { body: md('Another reply') } },
    { method: 'PUT', path: `${comments}/${comment.id}/replies/${reply.id}`, body: { body: md('Edited reply'), addedReactions: ['👍'], removedReactions: [] } },
    { method: 'POST', path: crComments, body: { body: { document: { object: 'document', data: {}, nodes: [] } } } },
    { method: 'PUT', path: `${crComments}/${crComment.id}`, body: { resolved: true, body: md('Edited'), addedReactions: ['1f44d'] } },
    { method: 'POST', path: `${crComments}/${crComment.id}/replies`, body: { body: md('Reply') } },
    { method: 'PUT', path: `${crComments}/${crComment.id}/replies/${crReply.id}`, body: { body: md('Edited'), removedReactions: ['1f44d'] } },
  ];
  await h.platform.settle();
  return { requests };
}
