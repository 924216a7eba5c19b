import { expect } from 'vitest';
import type { MemberRole } from '../../src/core/roles.js';
import type { Caller, Harness, TestResponse } from './harness.js';

/** Every role below admin, guests (null) last. */
export const ROLES_BELOW_ADMIN: (MemberRole | null)[] = ['create', 'review', 'edit', 'comment', 'read', null];

/** Requests one caller makes; each is a thunk so they run one after the other. */
type Attempts = (caller: Caller) => (() => Promise<TestResponse>)[];

/**
 * The role matrix of an organization's settings objects (SAML providers, translations, custom fields):
 * for a new member of every role below admin, each write is refused with 403; each read answers 200 for
 * members with a role (then `checkReads` looks at the bodies) and 403 for guests.
 */
export async function expectSettingsRoleMatrix(
  harness: Harness,
  options: { writes: Attempts; reads: Attempts; checkReads?: (responses: TestResponse[], role: MemberRole) => void },
): Promise<void> {
  for (const role of ROLES_BELOW_ADMIN) {
    const caller = await harness.user(role);
    for (const write of options.writes(caller)) expect((await write()).status, `write as ${role}`).toBe(403);
    const responses: TestResponse[] = [];
    for (const read of options.reads(caller)) responses.push(await read());
    for (const response of responses) expect(response.status, `read as ${role}`).toBe(role === null ? 403 : 200);
    if (role !== null) options.checkReads?.(responses, role);
  }
}
