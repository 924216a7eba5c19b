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
};

/** The operations by name. */
export type Operations = typeof operations;
