import { conflict, notFound } from '../../errors.js';
import { writeOperation } from '../../operation.js';
import { Id } from '../../schemas.js';
import { loadGroup, loadSection, locksSite, referenced, requireSite } from '../access.js';
import { putInGroup, takeOutOfGroup } from './membership.js';
import { presentGroupTo } from '../presenter.js';
import { GroupSchema } from './schemas.js';

/**
 * Puts a section of the site at the end of a group, out of its top-level place or another group (a
 * section is in at most one group). A section already in this group is a 409.
 */
export const addSectionToGroup = writeOperation({
  name: 'addSectionToGroup',
  summary: 'Add a section to a section group',
  params: { organizationId: Id, siteId: Id, siteSectionGroupId: Id },
  body: { sectionId: Id },
  response: GroupSchema,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionGroupId, sectionId }) {
    const { site, member } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const group = await loadGroup(ctx, site, siteSectionGroupId);
    const section = await referenced('sectionId', () => loadSection(ctx, site, sectionId));
    if (section.sectionGroupId === group.id) throw conflict(`Section ${section.id} is already in section group ${group.id}`);
    await putInGroup(ctx, section, group);
    return presentGroupTo(ctx, site, member, group.id);
  },
});

/** Takes a section out of a group: it goes to the top level of the site, right after the group. */
export const removeSectionFromGroup = writeOperation({
  name: 'removeSectionFromGroup',
  summary: 'Remove a section from a section group',
  params: { organizationId: Id, siteId: Id, siteSectionGroupId: Id, siteSectionId: Id },
  response: null,
  locks: locksSite,
  async run(ctx, { organizationId, siteId, siteSectionGroupId, siteSectionId }) {
    const { site } = await requireSite(ctx, organizationId, siteId, 'structure', 'change its structure');
    const group = await loadGroup(ctx, site, siteSectionGroupId);
    const section = await loadSection(ctx, site, siteSectionId);
    if (section.sectionGroupId !== group.id) throw notFound(`Section ${section.id} is not in section group ${group.id}`);
    await takeOutOfGroup(ctx, section, group);
  },
});
