import type { Context } from '../context.js';
import { collectionsOf } from '../collections/tree.js';
import { TOP_LEVEL_DEFAULT, contentLevel, higherLevel, spacePermissions } from '../permissions.js';
import {
  INDEXES,
  TABLES,
  memberId,
  type CollectionRecord,
  type MemberRecord,
  type SpaceGrantRecord,
  type SpaceRecord,
  type TeamMemberRecord,
} from '../records.js';
import type { MemberRole } from '../roles.js';

/**
 * The levels of one member on the content of one organization, from the rules in permissions.ts.
 * Loads the organization's collections (for inheritance) and the member's team grants once, so a list
 * of spaces is checked without a query per item. Build it after an operation's last write: it reads
 * a snapshot.
 */
export interface ContentLevels {
  /** The default level an item has: its own, else inherited up its collections (top: admin). */
  defaultLevelOf(item: SpaceRecord | CollectionRecord): MemberRole | null;
  /** The member's level on a collection (null: none). */
  collection(collection: CollectionRecord): MemberRole | null;
  /** The member's level on a space (null: none). */
  space(space: SpaceRecord): MemberRole | null;
}

/** The levels of `member` (null: someone who is not a member, who has none) in an organization. */
export async function contentLevels(ctx: Context, organizationId: string, member: MemberRecord | null): Promise<ContentLevels> {
  // Read together: one round trip on a store that batches a turn's reads (PostgreSQL), not two.
  const [collections, grants] = await Promise.all([collectionsOf(ctx, organizationId), member ? grantsOf(ctx, member) : new Map<string, MemberRole>()]);
  return levelsFrom(collections, member, grants);
}

/**
 * contentLevels for the caller (`userId`) in an organization, its reads started now, before the caller's
 * membership is known: a store that talks to a database reads them with whatever else this turn reads (a
 * space, and the membership that loadSpace guesses), not in a round trip after the membership. The places read
 * are those of the member's id (memberId), so they are its places whether or not it turns out a member.
 */
export function contentLevelsAhead(ctx: Context, organizationId: string, userId: string): (member: MemberRecord | null) => Promise<ContentLevels> {
  const collections = collectionsOf(ctx, organizationId);
  const places = ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: memberId(organizationId, userId) });
  collections.catch(() => undefined);
  places.catch(() => undefined);
  return async (member) => {
    const [found, placed] = await Promise.all([collections, places]);
    return levelsFrom(found, member, member ? await grantsOfPlaces(ctx, placed.items as TeamMemberRecord[]) : new Map<string, MemberRole>());
  };
}

/** Levels from already loaded collections and grants (spaceId → granted role). */
export function levelsFrom(
  collections: ReadonlyMap<string, CollectionRecord>,
  member: MemberRecord | null,
  grants: ReadonlyMap<string, MemberRole>,
): ContentLevels {
  const defaultLevelOf = (item: SpaceRecord | CollectionRecord): MemberRole | null => {
    const seen = new Set<string>();
    let current: SpaceRecord | CollectionRecord | undefined = item;
    while (current && !seen.has(current.id)) {
      if (current.defaultLevel !== undefined) return current.defaultLevel;
      seen.add(current.id);
      current = current.parent === undefined ? undefined : collections.get(current.parent);
    }
    return TOP_LEVEL_DEFAULT;
  };
  const role = member?.role ?? null;
  return {
    defaultLevelOf,
    collection: (collection) => (member ? contentLevel(role, defaultLevelOf(collection)) : null),
    space: (space) => (member ? contentLevel(role, defaultLevelOf(space), grants.get(space.id) ?? null) : null),
  };
}

/** The spaces the member's teams were granted, with the highest role granted to any of them. */
export async function grantsOf(ctx: Context, member: MemberRecord): Promise<Map<string, MemberRole>> {
  const places = await ctx.tx.list(TABLES.teamMembers, { index: INDEXES.teamMembersByMember, value: member.id });
  return grantsOfPlaces(ctx, places.items as TeamMemberRecord[]);
}

/** The spaces granted to the teams of these places (a member's), with the highest role granted to any of them. */
export async function grantsOfPlaces(ctx: Context, places: readonly TeamMemberRecord[]): Promise<Map<string, MemberRole>> {
  const granted = new Map<string, MemberRole>();
  // Every team's grants read at once (one round trip of a networked store); the highest role wins in any order.
  const lists = await Promise.all(places.map((place) => ctx.tx.list(TABLES.spaceGrants, { index: INDEXES.spaceGrantsByTeam, value: place.teamId })));
  for (const { items } of lists) {
    for (const grant of items as SpaceGrantRecord[]) {
      granted.set(grant.spaceId, higherLevel(granted.get(grant.spaceId) ?? null, grant.role) as MemberRole);
    }
  }
  return granted;
}

/** The collections and the live (not deleted) spaces of an organization, read together. */
export interface ContentSnapshot {
  readonly collections: ReadonlyMap<string, CollectionRecord>;
  readonly spaces: readonly SpaceRecord[];
}

/** Reads an organization's collections and live spaces. */
export async function contentSnapshot(ctx: Context, organizationId: string): Promise<ContentSnapshot> {
  const [{ items }, collections] = await Promise.all([
    ctx.tx.list(TABLES.spaces, { index: INDEXES.spacesByOrganization, value: organizationId, where: (record) => record.deletedAt === undefined }),
    collectionsOf(ctx, organizationId),
  ]);
  return { collections, spaces: items as SpaceRecord[] };
}

/** The live spaces of an organization a member can access, each with the member's level on it (`grants`: grantsOf, when already read). */
export async function spacesOfMember(ctx: Context, member: MemberRecord, snapshot?: ContentSnapshot, grants?: ReadonlyMap<string, MemberRole>) {
  const { collections, spaces } = snapshot ?? (await contentSnapshot(ctx, member.organizationId));
  const levels = levelsFrom(collections, member, grants ?? (await grantsOf(ctx, member)));
  const reachable: { space: SpaceRecord; level: MemberRole }[] = [];
  for (const space of spaces) {
    const level = levels.space(space);
    if (level !== null && spacePermissions(level, space.editMode).view) reachable.push({ space, level });
  }
  return reachable;
}
