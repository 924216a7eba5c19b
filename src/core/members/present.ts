import type * as v from 'valibot';
import type { Context } from '../context.js';
import { oncePerTransaction } from '../per-transaction.js';
import { INDEXES, TABLES, type MemberRecord, type TeamMemberRecord, type UserRecord } from '../records.js';
import { contentSnapshot, grantsOfPlaces, spacesOfMember, type ContentSnapshot } from '../spaces/levels.js';
import { loadUser, loadUsers, presentUser } from '../users/present.js';
import type { MemberSchema } from './schemas.js';

/** The member object of responses. */
type Member = v.InferInput<typeof MemberSchema>;

/** The member object of responses, with its counts computed now. */
export async function presentMember(ctx: Context, member: MemberRecord): Promise<Member> {
  // The user and the member's places in teams started together: a store that talks to a database reads them in
  // one round trip. (A page has presentMembers, which costs a lone member a few microseconds more.)
  const reading = loadUser(ctx, member.userId);
  const placing = placesOf(ctx, member);
  placing.catch(() => undefined);
  const user = await reading;
  const places = (await placing).items as TeamMemberRecord[];
  const spaces = await spacesCount(ctx, member, await contentOf(ctx, member.organizationId), places);
  return memberObject(ctx, member, user, places.length, spaces);
}

/**
 * The member objects of a page of members, with their counts computed now. Each kind of read is started for
 * the whole page at once (every user, then every member's places in teams), so that a store that talks to a
 * database reads each kind in one round trip, and a page in memory costs a few promises a member rather than
 * an async presenting of its own. A member's places give both its team count and its teams' grants.
 */
export async function presentMembers(ctx: Context, members: readonly MemberRecord[]): Promise<Member[]> {
  const users = loadUsers(ctx, members.map((member) => member.userId));
  const places = placesOfPage(ctx, members);
  places?.catch(() => undefined);
  const loaded = await users;
  const placed = places ? (await places).map((found) => found.items as TeamMemberRecord[]) : members.map(() => NO_TEAMS);
  const spaces = await countSpaces(ctx, members, placed);
  return members.map((member, i) => memberObject(ctx, member, loaded[i], placed[i].length, spaces[i]));
}

/** The places of a member in teams. */
const placesOf = (ctx: Context, member: MemberRecord) => ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id });

const NO_PLACES = Promise.resolve({ items: [], count: 0 });

/** The places of a member of an organization known to have no teams (shared: never changed). */
const NO_TEAMS: TeamMemberRecord[] = [];

/**
 * Every member's places in teams, listed for the page at once; undefined when every member's organization is
 * known to have no teams: then no member has a place in one, and the page needs no list and no promise a member.
 */
function placesOfPage(ctx: Context, members: readonly MemberRecord[]): Promise<{ items: readonly unknown[] }[]> | undefined {
  const withoutTeams = new Map<string, boolean>();
  const known = (organizationId: string) => {
    let none = withoutTeams.get(organizationId);
    if (none === undefined) withoutTeams.set(organizationId, (none = teamCount(ctx, organizationId).known === 0));
    return none;
  };
  const lists = members.map((member) => (known(member.organizationId) ? undefined : placesOf(ctx, member)));
  return lists.every((list) => list === undefined) ? undefined : Promise.all(lists.map((list) => list ?? NO_PLACES));
}

/** An organization's count of teams, read once per transaction: `known` once the read has answered. */
interface TeamCount {
  known?: number;
}

/** The team count of an organization (see TeamCount); its read starts with the first call of a transaction. */
function teamCount(ctx: Context, organizationId: string): TeamCount {
  return oncePerTransaction(ctx, ['team-count', organizationId], () => {
    const count: TeamCount = {};
    ctx.tx.list(TABLES.teams, { index: INDEXES.teamsByOrganization, value: organizationId, limit: 0 }).then(
      (found) => void (count.known = found.count),
      () => undefined,
    );
    return count;
  });
}

/** The member object of a member, its user, and its counts. */
function memberObject(ctx: Context, member: MemberRecord, user: UserRecord, teams: number, spaces: number): Member {
  return {
    object: 'member',
    id: member.userId,
    role: member.role,
    user: presentUser(ctx, user),
    disabled: member.disabled,
    joinedAt: member.joinedAt,
    ...(member.lastSeenAt !== undefined && { lastSeenAt: member.lastSeenAt }),
    sso: member.sso,
    spaces,
    teams,
  };
}

/** The organization's content (collections and live spaces), read once per transaction. */
const contentOf = (ctx: Context, organization: string) => oncePerTransaction(ctx, ['content', organization], () => contentSnapshot(ctx, organization));

/**
 * Starts reading what presenting the members of an organization reads once (its content), for an operation
 * to call with its other reads: a store that talks to a database then reads it with them, not in a round
 * trip of its own. A failure is left to whoever awaits it.
 */
export function prefetchMemberContent(ctx: Context, organizationId: string): void {
  contentOf(ctx, organizationId).catch(() => undefined);
}

/**
 * prefetchMemberContent, and the organization's count of teams, for an operation that reads a page of its
 * members before presenting it: by then the count is known, and a page of an organization without teams
 * reads no places (a list per member, a tenth of a page's CPU in memory). The count only saves work once it
 * is in: presentMembers never waits for it, so a database is not asked for the places in a later round trip.
 */
export function prefetchMemberPage(ctx: Context, organizationId: string): void {
  prefetchMemberContent(ctx, organizationId);
  teamCount(ctx, organizationId);
}

/**
 * How many spaces each member can access, by the rules of permissions.ts (spaces/levels.ts): deleted spaces
 * never count; a guest counts only spaces granted to its teams (`placed`: each member's places in teams). The
 * content of an organization is read once per transaction, and one without spaces counts 0 for everyone
 * without a read of its own.
 */
async function countSpaces(ctx: Context, members: readonly MemberRecord[], placed: readonly (readonly TeamMemberRecord[])[]): Promise<number[]> {
  const contents = new Map<string, ContentSnapshot>();
  for (const { organizationId } of members) {
    if (!contents.has(organizationId)) contents.set(organizationId, await contentOf(ctx, organizationId));
  }
  const counts = members.map((member, i) => spacesCount(ctx, member, contents.get(member.organizationId)!, placed[i]));
  return counts.every((count) => typeof count === 'number') ? (counts as number[]) : Promise.all(counts);
}

/** How many spaces of an organization's content (`snapshot`) one member can access: 0 at once when it has none. */
function spacesCount(ctx: Context, member: MemberRecord, snapshot: ContentSnapshot, places: readonly TeamMemberRecord[]): number | Promise<number> {
  return snapshot.spaces.length === 0 ? 0 : countMemberSpaces(ctx, member, snapshot, places);
}

/** How many spaces of an organization's content (`snapshot`, with spaces) one member can access. */
async function countMemberSpaces(ctx: Context, member: MemberRecord, snapshot: ContentSnapshot, places: readonly TeamMemberRecord[]): Promise<number> {
  const grants = await grantsOfPlaces(ctx, places);
  if (grants.size > 0) return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  // Without team grants the count depends only on the role: a page of members computes it once per role.
  return oncePerTransaction(ctx, ['content-count', member.organizationId, member.role], async () => {
    return (await spacesOfMember(ctx, member, snapshot, grants)).length;
  });
}
