import { route } from '../operation.js';
import { inviteUsersToOrganization } from './invite-by-email.js';
import { createInvite, deleteInvite, getInvite, joinOrganization, listInvites, updateInvite } from './operations.js';

/** The invite endpoints: invite links, and invites by e-mail; creating and listing links, joining and inviting by e-mail come from the public API. */
export const inviteRoutes = [
  route('POST', '/v1/orgs/{organizationId}/invites', inviteUsersToOrganization, 200, { extension: true }),
  route('GET', '/v1/orgs/{organizationId}/link-invites', listInvites, 200, { extension: true }),
  route('POST', '/v1/orgs/{organizationId}/link-invites', createInvite, 201, { extension: true }),
  route('GET', '/v1/orgs/{organizationId}/link-invites/{inviteId}', getInvite, 200),
  route('PATCH', '/v1/orgs/{organizationId}/link-invites/{inviteId}', updateInvite, 200),
  route('DELETE', '/v1/orgs/{organizationId}/link-invites/{inviteId}', deleteInvite, 205),
  route('POST', '/v1/orgs/{organizationId}/invites/{inviteId}', joinOrganization, 200, { extension: true }),
];
