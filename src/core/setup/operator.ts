import * as v from 'valibot';
import type { WriteTransaction } from '../../store/types.js';
import { issueToken } from '../auth.js';
import type { Clock } from '../clock.js';
import { badRequest, notFound } from '../errors.js';
import type { Ids } from '../ids.js';
import { putMembership } from '../members/put-membership.js';
import { OrganizationTitle } from '../organizations/schemas.js';
import { INDEXES, TABLES, type OrganizationRecord } from '../records.js';
import { MEMBER_ROLES, type MemberRole } from '../roles.js';
import { findOrCreateUser } from '../users/find-or-create-user.js';
import { DisplayName, Email } from '../users/user-schemas.js';
import type { Store } from '../../store/types.js';

/**
 * What the operator of a platform does outside the API (the CLI and the server's first start):
 * create an organization with its owner, create users and their tokens. No caller is checked here:
 * whoever can run these can already read the data file.
 */

interface Ports {
  store: Store;
  clock: Clock;
  ids: Ids;
}

function check<T>(schema: v.GenericSchema<unknown, T>, value: unknown, field: string): T {
  const result = v.safeParse(schema, value);
  if (!result.success) throw badRequest(`${field}: ${result.issues[0].message}`);
  return result.output;
}

/** What initialize and addUser report. */
export interface Credentials {
  organizationId: string;
  userId: string;
  token: string;
}

/**
 * Creates an organization, its owner (role admin) and a token: a new organization with a new owner. Only
 * an `email` that an existing user has makes that user the owner; without one, the owner is a new user
 * with an address of its own (owner-<id>@docs-platform.local), so that a second init on the same data
 * does not make one user the admin of both organizations.
 */
export async function initialize(
  ports: Ports,
  options: { title?: string; email?: string; name?: string } = {},
): Promise<Credentials> {
  const title = check(OrganizationTitle, options.title ?? 'My organization', 'title');
  const email = options.email === undefined ? undefined : check(Email, options.email, 'email');
  const name = check(DisplayName, options.name ?? 'Owner', 'name');
  const now = ports.clock.now().toISOString();
  // Drawn once, not per attempt: the address names the scope its user's creation locks, and a store may run
  // the write again with the scopes of the attempt before taken first (Store.lock).
  const ownerId = ports.ids.id();
  return ports.store.write(async (tx) => {
    const organization: OrganizationRecord = {
      id: ports.ids.id(),
      title,
      createdAt: now,
      emailDomains: [],
      defaultRole: 'read',
      sso: false,
      ai: false,
      inviteLinks: true,
    };
    await tx.insert(TABLES.organizations, organization);
    if (!(await tx.get(TABLES.settings, INITIALIZED))) await tx.insert(TABLES.settings, { id: INITIALIZED, value: now });
    const { user } = await findOrCreateUser(tx, ports.ids, email ?? (await unusedOwnerEmail(tx, ports.ids, ownerId)), name, now);
    await putMembership(tx, organization.id, user.id, 'admin', now);
    const token = await issueToken(tx, ports.ids, user.id, 'init', now);
    return { organizationId: organization.id, userId: user.id, token };
  });
}

/**
 * Makes a user a member of an organization with a role and issues a new token. A user with the same
 * e-mail address is the same person: it keeps its id and joins one more organization (an existing
 * membership takes the new role).
 */
export async function addUser(
  ports: Ports,
  options: { organizationId: string; email: string; name: string; role: MemberRole | null },
): Promise<Omit<Credentials, 'organizationId'>> {
  const email = check(Email, options.email, 'email');
  const name = check(DisplayName, options.name, 'name');
  const role = check(v.nullable(v.picklist(MEMBER_ROLES, `must be one of ${MEMBER_ROLES.join(', ')}`)), options.role, 'role');
  const now = ports.clock.now().toISOString();
  return ports.store.write(async (tx) => {
    if (!(await tx.get(TABLES.organizations, options.organizationId))) {
      throw notFound(`No organization ${options.organizationId}`);
    }
    const { user } = await findOrCreateUser(tx, ports.ids, email, name, now);
    await putMembership(tx, options.organizationId, user.id, role, now);
    const token = await issueToken(tx, ports.ids, user.id, 'cli', now);
    return { userId: user.id, token };
  });
}

/** An e-mail address no user has, for the owner of an organization created without one. */
async function unusedOwnerEmail(tx: WriteTransaction, ids: Ids, first: string): Promise<string> {
  for (let id = first; ; id = ids.id()) {
    // Lower case, as addresses are stored: two ids that differ only in case would meet, so check.
    const email = `owner-${id.toLowerCase()}@docs-platform.local`;
    const { count } = await tx.list(TABLES.users, { index: INDEXES.usersByEmail, value: email, limit: 0 });
    if (count === 0) return email;
  }
}

/** The setting that marks a store as initialized: written with the first organization. */
const INITIALIZED = 'initializedAt';

/** Whether the store has never been initialized (no organization was ever created in it). */
export async function isInitialized(store: Store): Promise<boolean> {
  return store.read(async (tx) => (await tx.get(TABLES.settings, INITIALIZED)) !== undefined);
}
