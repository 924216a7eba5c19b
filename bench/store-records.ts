import { INDEXES, TABLES, memberId, type MemberRecord } from '../src/core/records.js';

/** The table and the index the store case writes and keeps up to date, as the members API does. */
export const MEMBERS = TABLES.members;
export const MEMBERS_INDEX = INDEXES.membersByOrganization;

/** The organization every record of the store case belongs to: one large organization, as in the HTTP cases. */
export const ORGANIZATION_ID = 'obenchstoreorganizat';

/** A member record of the store case, with the profile a member list shows beside it. */
export interface BenchMemberRecord extends MemberRecord {
  readonly displayName: string;
  readonly email: string;
  readonly photoURL: string;
  /** How many writes of the case have touched the record: the last acknowledged one must be what the store holds. */
  readonly stamp: number;
}

const JOINED = Date.UTC(2026, 0, 1);

/** A 20-character id, like the platform's, different for every n. */
function userIdOf(n: number): string {
  return `u${n.toString(36).padStart(19, '0')}`;
}

/**
 * The n-th member of the store case: a real MemberRecord (the fields of records.ts, the id the core
 * builds) carrying the user's name, e-mail address and photo URL, about 400 bytes of JSON. A bare
 * MemberRecord is ~240 bytes; the requirement measures writes of 300-500 byte records, the size of a
 * member or team record with its descriptive fields.
 */
export function benchMember(n: number): BenchMemberRecord {
  const userId = userIdOf(n);
  const joinedAt = new Date(JOINED + n * 1000).toISOString();
  return {
    id: memberId(ORGANIZATION_ID, userId),
    organizationId: ORGANIZATION_ID,
    userId,
    role: 'read',
    disabled: false,
    sso: false,
    joinedAt,
    lastSeenAt: joinedAt,
    displayName: `Bench Member ${n}`,
    email: `bench.member.${n}@docs-platform.example.com`,
    photoURL: `https://avatars.docs-platform.example.com/${userId}.png?size=128`,
    stamp: 0,
  };
}

/**
 * The record a write of the store case puts: the member with the other of two roles, seen now, and
 * the write's stamp; a new object, since stored records are frozen.
 */
export function touchedMember(record: BenchMemberRecord, stamp: number, now: Date): BenchMemberRecord {
  return { ...record, role: record.role === 'read' ? 'edit' : 'read', lastSeenAt: now.toISOString(), stamp };
}
