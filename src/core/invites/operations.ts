import * as v from 'valibot';
import { forbidden, notFound } from '../errors.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { readOperation, writeOperation } from '../operation.js';
import { ORGANIZATION_RULES, findMembership, requireOrganization } from '../permissions.js';
import { INDEXES, TABLES, memberId, type InviteRecord, type MemberRecord } from '../records.js';
import { Id, MemberRoleOrGuest } from '../schemas.js';
import { isRedundant, loadUsableInvite, presentInvite } from './present.js';
import { InviteList, InviteSchema } from './schemas.js';

/** Loads an invite link of an organization the caller administers, or 404. */
async function loadInviteAsAdmin(ctx: Parameters<typeof presentInvite>[0], organizationId: string, inviteId: string, doing: string) {
  await requireOrganization(ctx, organizationId, 'admin', doing);
  const invite = (await ctx.tx.get(TABLES.invites, inviteId)) as InviteRecord | undefined;
  if (!invite || invite.organizationId !== organizationId) throw notFound(`No invite link ${inviteId} in organization ${organizationId}`);
  return invite;
}

/** Creates an invite link granting a role (null: guest); admins only, while invite links are enabled. */
export const createInvite = writeOperation({
  name: 'createInvite',
  summary: 'Create an invite link to an organization',
  params: { organizationId: Id },
  body: { role: MemberRoleOrGuest },
  response: InviteSchema,
  async run(ctx, { organizationId, role }) {
    const { organization } = await requireOrganization(ctx, organizationId, 'admin', 'create invite links');
    if (!organization.inviteLinks) throw forbidden('Invite links are disabled for this organization (see its inviteLinks setting)');
    const invite: InviteRecord = { id: ctx.ids.id(), organizationId, role, createdAt: ctx.now, createdBy: ctx.actor.userId };
    await ctx.tx.insert(TABLES.invites, invite);
    return presentInvite(ctx, invite);
  },
});

/** Lists an organization's invite links, oldest first; admins only. */
export const listInvites = readOperation({
  name: 'listInvites',
  summary: 'List the invite links of an organization',
  params: { organizationId: Id },
  query: listQuery,
  response: InviteList,
  async run(ctx, input) {
    await requireOrganization(ctx, input.organizationId, 'admin', 'list invite links');
    const page = await pageOf(ctx.tx, TABLES.invites, { index: INDEXES.invitesByOrganization, value: input.organizationId }, input);
    return mapPage(page, (invite) => presentInvite(ctx, invite as InviteRecord));
  },
});

/**
 * Gets an invite link: anyone signed in who has its id may look at it before joining, while invite
 * links are enabled. Admins, who list, change and delete invite links whatever that setting, always may.
 */
export const getInvite = readOperation({
  name: 'getInvite',
  summary: 'Get an invite link of an organization',
  params: { organizationId: Id, inviteId: Id },
  response: InviteSchema,
  async run(ctx, { organizationId, inviteId }) {
    const member = await findMembership(ctx, organizationId);
    const invite = member && ORGANIZATION_RULES.admin(member)
      ? await loadInviteAsAdmin(ctx, organizationId, inviteId, 'read invite links')
      : (await loadUsableInvite(ctx, organizationId, inviteId)).invite;
    return presentInvite(ctx, invite);
  },
});

/** Changes the role an invite link grants; admins only. */
export const updateInvite = writeOperation({
  name: 'updateInvite',
  summary: 'Update the role of an invite link',
  params: { organizationId: Id, inviteId: Id },
  body: { role: MemberRoleOrGuest },
  response: InviteSchema,
  async run(ctx, { organizationId, inviteId, role }) {
    const invite = await loadInviteAsAdmin(ctx, organizationId, inviteId, 'change invite links');
    const updated: InviteRecord = { ...invite, role };
    await ctx.tx.put(TABLES.invites, updated);
    return presentInvite(ctx, updated);
  },
});

/** Deletes an invite link; admins only. Members who joined with it stay. */
export const deleteInvite = writeOperation({
  name: 'deleteInvite',
  summary: 'Delete an invite link',
  params: { organizationId: Id, inviteId: Id },
  response: null,
  async run(ctx, { organizationId, inviteId }) {
    const invite = await loadInviteAsAdmin(ctx, organizationId, inviteId, 'delete invite links');
    await ctx.tx.delete(TABLES.invites, invite.id);
  },
});

/**
 * Joins an organization with an invite link (403 for a member an admin has disabled). A newcomer becomes a member with the invite's role; a
 * member whose role is lower is raised to it; a member who has as much already is left as it is.
 */
export const joinOrganization = writeOperation({
  name: 'joinOrganization',
  summary: 'Join an organization with an invite link',
  params: { organizationId: Id, inviteId: Id },
  response: v.object({}),
  async run(ctx, { organizationId, inviteId }) {
    const { invite } = await loadUsableInvite(ctx, organizationId, inviteId);
    const existing = (await ctx.tx.get(TABLES.members, memberId(organizationId, ctx.actor.userId))) as MemberRecord | undefined;
    // An invite link must not undo an admin's decision to disable someone.
    if (existing?.disabled) throw forbidden('Your membership of this organization has been disabled; an admin can restore it');
    const member = await findMembership(ctx, organizationId);
    if (isRedundant(invite, member)) return {};
    const joined: MemberRecord = member
      ? { ...member, role: invite.role }
      : {
          id: memberId(organizationId, ctx.actor.userId),
          organizationId,
          userId: ctx.actor.userId,
          role: invite.role,
          disabled: false,
          sso: false,
          joinedAt: ctx.now,
        };
    await ctx.tx.put(TABLES.members, joined);
    return {};
  },
});
