import { afterAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../src/core/platform.js';
import { createPostgresStore } from '../../src/postgres.js';
import { dropSchemas, freshSchema, postgresAvailable, skipReason, TEST_DATABASE_URL } from './database.js';

const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

/**
 * Operations whose locks come after their first reads declare them (Operation.locks), so that PostgreSQL takes
 * them before the snapshot: none of them runs an attempt again for a late lock (store.ts, `late-lock`).
 */
describe.skipIf(!postgresAvailable)(`PostgreSQL: operations that declare their lock scopes${postgresAvailable ? '' : ` (skipped: ${skipReason})`}`, () => {
  it('invite 40 new addresses, create custom fields and SAML providers, set hostnames and basenames, and merge, locked from the first attempt', async () => {
    const schema = freshSchema('declared_ops');
    schemas.push(schema);
    const store = await createPostgresStore({ connectionString: TEST_DATABASE_URL, schema, log: () => undefined });
    const platform = createPlatform({ store, blobs: store.blobs });
    try {
      const { organizationId, userId, token } = await platform.initialize({ title: 'Acme', email: 'owner@acme.test' });
      const api = platform.as(userId);
      const late = () => store.figures().writeRetries?.['late-lock'] ?? 0;
      const before = late();
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
      expect(late() - before).toBe(0);
    } finally {
      await platform.close();
    }
    // Some 50 writes, a few seconds on a loaded machine: more than the default 10 s there.
  }, 60_000);
});
