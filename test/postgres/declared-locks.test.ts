import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../src/core/operation.js';
import { createPlatform, type Platform } from '../../src/core/platform.js';
import { createPostgresStore } from '../../src/postgres.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

/**
 * Runs `use` on a platform over a fresh schema with its first organization, and expects that none of its
 * writes ran an attempt again for a lock asked for after the snapshot (`late-lock`).
 */
async function expectNoLateLock(label: string, use: (opened: { platform: Platform; organizationId: string; userId: string; token: string }) => Promise<void>) {
  const schema = freshSchema(label);
  schemas.push(schema);
  const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, log: () => undefined });
  const platform = createPlatform({ store, blobs: store.blobs });
  try {
    const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
    const late = () => store.figures().writeRetries?.['late-lock'] ?? 0;
    const before = late();
    await use({ platform, organizationId, userId, token });
    expect(late() - before).toBe(0);
  } finally {
    await platform.close();
  }
}

/**
 * Operations whose locks come after their first reads declare them (Operation.locks), so that PostgreSQL takes
 * them before the snapshot: none of them runs an attempt again for a late lock (store.ts, `late-lock`).
 */
describe.skipIf(!postgresAvailable)(`PostgreSQL: operations that declare their lock scopes${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('invite 40 new addresses, create custom fields and SAML providers, set hostnames and basenames, and merge, locked from the first attempt', async () => {
    await expectNoLateLock('declared_ops', async ({ platform, organizationId, userId, token }) => {
      const api = platform.as(userId);
      // Each address is locked (one user an address) after the organization is read: undeclared, each one
      // ran the write again, and 40 of them went past the 30 attempts a write has (a 503).
      const emails = Array.from({ length: 40 }, (_, at) => `Person${at}@Acme.test`);
      const invited = await api.inviteUsersToOrganization({ organizationId, emails });
      expect(invited.invited).toBe(40);
      await api.createCustomField({ organizationId, name: 'owner', type: 'text' });
      await api.createSamlProvider({ organizationId, label: 'Okta' });
      await api.updateOrganization({ organizationId, hostname: 'acme-docs' });
      const site = await api.createSite({ organizationId, title: 'Docs' });
      await api.updateSite({ organizationId, siteId: site.id, hostname: 'docs.acme.test', basename: 'handbook' });
      // Through a token looked up for the first time in this process: its reads come before the operation's.
      const space = (await api.createSpace({ organizationId, title: 'Docs' })) as { id: string };
      const changeRequest = await api.createChangeRequest({ spaceId: space.id });
      await api.updateChangeRequestContent({ spaceId: space.id, changeRequestId: changeRequest.id, changes: [{ operation: 'insert_page', title: 'A page', document: { markdown: 'Text.' } }] });
      const merged = await platform.runWithToken(platform.operations.mergeChangeRequest, token, { spaceId: space.id, changeRequestId: changeRequest.id });
      expect(merged).toMatchObject({ result: 'merge' });
    });
    // Some 50 writes, a few seconds on a loaded machine: more than the default 10 s there.
  }, 60_000);

  it("change a site's structure, settings and links, and members' roles, each through a token new to the process, locked from the first attempt", async () => {
    await expectNoLateLock('declared_site', async ({ platform, organizationId, userId }) => {
      const api = platform.as(userId);
      const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((title) => api.createSpace({ organizationId, title }) as Promise<{ id: string }>));
      const site = await api.createSite({ organizationId, title: 'Docs' });
      const siteId = site.id;
      const other = (await api.inviteUsersToOrganization({ organizationId, emails: ['second@acme.test'], role: 'admin' })) as unknown;
      expect(other).toMatchObject({ invited: 1 });
      const second = (await api.listMembers({ organizationId })).items.find((member) => member.user.email === 'second@acme.test')!;
      // Each through a token this process never saw: its lookup reads before the operation's first call, the
      // site's lock (requireSite) or the admin guard's, which an undeclared scope then takes too late.
      const asNewToken = async <I, O, C>(operation: Operation<I, O, C>, input: C): Promise<O> => {
        const { token } = await api.createUserToken({});
        return platform.runWithToken(operation as unknown as Operation<I, O>, token, v.parse(operation.input, input));
      };
      const ops = platform.operations;
      const first = await asNewToken(ops.addSectionToSite, { organizationId, siteId, spaceId: a.id });
      const last = await asNewToken(ops.addSectionToSite, { organizationId, siteId, spaceId: b.id });
      await asNewToken(ops.moveSiteSection, { organizationId, siteId, siteSectionId: last.id, position: { before: { type: 'site-section', siteSection: first.id } } });
      await asNewToken(ops.updateSiteSection, { organizationId, siteId, siteSectionId: last.id, title: 'Second' });
      const group = await asNewToken(ops.addSectionGroupToSite, { organizationId, siteId, title: 'Group' });
      await asNewToken(ops.moveSiteSectionGroup, { organizationId, siteId, siteSectionGroupId: group.id, position: { before: { type: 'site-section', id: last.id } } });
      const siteSpace = await asNewToken(ops.addSpaceToSite, { organizationId, siteId, spaceId: c.id, sectionId: first.id });
      await asNewToken(ops.moveSiteSpace, { organizationId, siteId, siteSpaceId: siteSpace.id, position: { before: { type: 'site-space', siteSpace: first.siteSpaces[0].id } } });
      await asNewToken(ops.createSiteRedirect, { organizationId, siteId, source: '/old', destination: { kind: 'external', url: 'https://example.com/new' } });
      const link = await asNewToken(ops.createSiteShareLink, { organizationId, siteId, name: 'Preview' });
      await asNewToken(ops.updateSiteShareLink, { organizationId, siteId, shareLinkId: link.id, active: false });
      await asNewToken(ops.publishSite, { organizationId, siteId });
      await asNewToken(ops.deleteSiteSection, { organizationId, siteId, siteSectionId: last.id });
      // The admin guard: demoting one of two admins, then removing the other member.
      await asNewToken(ops.updateMember, { organizationId, userId: second.user.id, role: 'edit' });
      await asNewToken(ops.removeMember, { organizationId, userId: second.user.id });
    });
  }, 60_000);
});
