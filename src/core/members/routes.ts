import { route } from '../operation.js';
import { getMember } from './get.js';
import { listMembers } from './list.js';
import { pingOrganization } from './ping.js';
import { removeMember } from './remove.js';
import { setMemberSso, updateMember } from './update.js';

/** The member endpoints. */
export const memberRoutes = [
  route('GET', '/v1/orgs/{organizationId}/members', listMembers, 200),
  route('GET', '/v1/orgs/{organizationId}/members/{userId}', getMember, 200),
  route('PATCH', '/v1/orgs/{organizationId}/members/{userId}', updateMember, 200),
  route('DELETE', '/v1/orgs/{organizationId}/members/{userId}', removeMember, 204),
  route('POST', '/v1/orgs/{organizationId}/members/{userId}/sso', setMemberSso, 200),
  route('POST', '/v1/orgs/{organizationId}/ping', pingOrganization, 200),
];
