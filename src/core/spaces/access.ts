import type { WriteTransaction } from '../../store/types.js';
import type { Context } from '../context.js';
import { FailAfterCommit, conflict, notFound } from '../errors.js';
import { SPACE_NEEDS, assertSpaceLevel, findMembership, type SpaceAction } from '../permissions.js';
import { TABLES, type MemberRecord, type SpaceRecord } from '../records.js';
import type { MemberRole } from '../roles.js';
import { contentLevels, contentLevelsAhead, type ContentLevels } from './levels.js';
import { purgeSpace } from './owned.js';
import { expired } from './trash.js';

/** A space the caller reached, with its membership of the space's organization and its level on it. */
export interface SpaceAccess {
  readonly space: SpaceRecord;
  readonly member: MemberRecord;
  readonly levels: ContentLevels;
  readonly level: MemberRole | null;
}

/** How an operation reaches a space. */
export interface ReachOptions {
  /** Whether a deleted space (within its 7 days) is reached too: reading it and restoring it. */
  readonly deleted?: boolean;
  /** A write operation's transaction: a space past its window is purged with it before the 404. */
  readonly purge?: WriteTransaction;
}

/**
 * The organization of each space this process read (it changes only when the space is transferred), bounded:
 * loadSpace asks for the caller's membership of it with the space. Only a guess: checked against the space read.
 */
const organizationOfSpace = new Map<string, string>();
const MAX_KNOWN_SPACES = 100_000;

function rememberOrganization(space: SpaceRecord): void {
  if (organizationOfSpace.get(space.id) === space.organizationId) return;
  if (organizationOfSpace.size >= MAX_KNOWN_SPACES) organizationOfSpace.clear();
  organizationOfSpace.set(space.id, space.organizationId);
}

/**
 * Loads a space for the caller. 404 when there is none, when the caller is not a member of its
 * organization, when it is past its restore window (then purged, when `purge` is given), and when it
 * is deleted unless `deleted` allows it.
 */
export async function loadSpace(ctx: Context, spaceId: string, options: ReachOptions = {}): Promise<SpaceAccess> {
  const reading = ctx.tx.get(TABLES.spaces, spaceId) as Promise<SpaceRecord | undefined>;
  // The caller's membership of the organization the space was in when this process last read it, asked for
  // with the space: a store that talks to a database reads both in one round trip, not one after the other.
  // Used only if the space is still there (a transfer moves it).
  const userId = ctx.actor?.userId;
  const guessed = userId === undefined ? undefined : organizationOfSpace.get(spaceId);
  const early = guessed === undefined ? undefined : findMembership(ctx, guessed);
  early?.catch(() => undefined);
  // And what the caller's levels in it are read from.
  const levelsAhead = guessed === undefined ? undefined : contentLevelsAhead(ctx, guessed, userId!);
  const space = await reading;
  // Made only when thrown: an error captures a stack trace, which every read of a space paid (3% of a page's JSON).
  const missing = () => notFound(`No space ${spaceId}`);
  if (!space) throw missing();
  if (expired(space, ctx.now)) {
    if (!options.purge) throw missing();
    await purgeSpace(options.purge, space.id);
    throw new FailAfterCommit(missing());
  }
  rememberOrganization(space);
  const member = await (guessed === space.organizationId ? early! : findMembership(ctx, space.organizationId));
  if (!member) throw missing();
  if (space.deletedAt !== undefined && !options.deleted) {
    throw notFound(`Space ${spaceId} is deleted; restore it first with POST /v1/spaces/${spaceId}/restore`);
  }
  const levels = await (guessed === space.organizationId ? levelsAhead!(member) : contentLevels(ctx, space.organizationId, member));
  return { space, member, levels, level: levels.space(space) };
}

/**
 * Loads a space and checks that the caller may do `action` on it: 404 as loadSpace, then 403 when its
 * level is too low, then 409 when the action changes content and the space is locked.
 */
export async function requireSpace(ctx: Context, spaceId: string, action: SpaceAction, doing: string, options: ReachOptions = {}) {
  const access = await loadSpace(ctx, spaceId, options);
  assertSpaceLevel(access.level, action, `space ${spaceId}`, doing);
  const need = SPACE_NEEDS[action] as { readonly live?: boolean };
  if (need.live) assertEditable(access.space);
  return access;
}

/**
 * Throws 409 when the space's `editMode` is `locked`: every change of its content (pages, files,
 * merges, imports) checks this, after the caller's level, until the space is set back to `live`.
 */
export function assertEditable(space: SpaceRecord): void {
  if (space.editMode === 'locked') {
    throw conflict(`Space ${space.id} is locked (editMode "locked"): set its editMode to "live" to change its content`);
  }
}
