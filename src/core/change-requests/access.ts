import type { Context } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { assertSpaceLevel, type SpaceAction } from '../permissions.js';
import { INDEXES, TABLES, type ChangeRequestRecord } from '../records.js';
import { assertEditable, loadSpace, type ReachOptions, type SpaceAccess } from '../spaces/access.js';

/** A change request the caller reached, with its space. */
export interface ChangeRequestAccess extends SpaceAccess {
  readonly changeRequest: ChangeRequestRecord;
}

/** The revision a change request started from or was last brought up to date with: what merges compare against. */
export const baseRevisionOf = (changeRequest: ChangeRequestRecord): string =>
  changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial;

/** A change request of a space by its id or its number in the space; undefined when there is none. */
export async function findChangeRequest(ctx: Context, spaceId: string, idOrNumber: string): Promise<ChangeRequestRecord | undefined> {
  return byNumber(ctx, spaceId, idOrNumber, (await ctx.tx.get(TABLES.changeRequests, idOrNumber)) as ChangeRequestRecord | undefined);
}

/** The change request `byId` (the record whose id is `idOrNumber`) when it is the space's, else the one whose number it is. */
async function byNumber(ctx: Context, spaceId: string, idOrNumber: string, byId: ChangeRequestRecord | undefined): Promise<ChangeRequestRecord | undefined> {
  if (byId && byId.spaceId === spaceId) return byId;
  if (!/^[1-9]\d{0,15}$/.test(idOrNumber)) return undefined;
  const number = Number(idOrNumber);
  const { items } = await ctx.tx.list(TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: spaceId, prefix: [number], limit: 1 });
  return items[0] as ChangeRequestRecord | undefined;
}

/**
 * Loads a change request of a space (by id or number) for the caller: the space as loadSpace reaches it
 * (404), the caller's level checked for `action` (403), then the request itself (404). The `live` part of
 * an action is not checked here: callers that change content call assertEditable.
 */
export async function loadChangeRequest(
  ctx: Context,
  spaceId: string,
  changeRequestId: string,
  action: SpaceAction,
  doing: string,
  options: ReachOptions = {},
): Promise<ChangeRequestAccess> {
  // The record by id is read with the space (one round trip on PostgreSQL), and used once the caller may.
  const [access, byId] = await Promise.all([loadSpace(ctx, spaceId, options), ctx.tx.get(TABLES.changeRequests, changeRequestId) as Promise<ChangeRequestRecord | undefined>]);
  assertSpaceLevel(access.level, action, `space ${spaceId}`, doing);
  const changeRequest = await byNumber(ctx, spaceId, changeRequestId, byId);
  if (!changeRequest) throw notFound(`No change request ${changeRequestId} in space ${spaceId}`);
  return { ...access, changeRequest };
}

/**
 * Checks that a change request's content may change now: the space is `live` (409 otherwise) and the
 * request is a draft or open (409 for archived: reopen it first; 409 for merged: it is final).
 */
export function assertContentEditable(access: ChangeRequestAccess): void {
  assertEditable(access.space);
  const { changeRequest } = access;
  if (changeRequest.status === 'merged') throw conflict(`Change request ${changeRequest.number} is merged: its content can no longer change`);
  if (changeRequest.status === 'archived') {
    throw conflict(`Change request ${changeRequest.number} is archived: set its status to draft or open to change its content`);
  }
}
