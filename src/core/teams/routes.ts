import { route } from '../operation.js';
import { createTeam, deleteTeam, getTeam, updateTeam } from './manage.js';
import { addTeamMember, listMemberTeams, listTeamMembers, removeTeamMember, updateTeamMembers } from './members.js';
import { listTeams } from './list.js';

/** The team and team member endpoints. */
export const teamRoutes = [
  route('GET', '/v1/orgs/{organizationId}/teams', listTeams, 200),
  route('PUT', '/v1/orgs/{organizationId}/teams', createTeam, 201),
  route('GET', '/v1/orgs/{organizationId}/teams/{teamId}', getTeam, 200),
  route('PATCH', '/v1/orgs/{organizationId}/teams/{teamId}', updateTeam, 200),
  route('DELETE', '/v1/orgs/{organizationId}/teams/{teamId}', deleteTeam, 204),
  route('GET', '/v1/orgs/{organizationId}/teams/{teamId}/members', listTeamMembers, 200),
  route('PUT', '/v1/orgs/{organizationId}/teams/{teamId}/members', updateTeamMembers, 204),
  route('PUT', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', addTeamMember, 204),
  route('DELETE', '/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', removeTeamMember, 204),
  route('GET', '/v1/orgs/{organizationId}/members/{userId}/teams', listMemberTeams, 200),
];
