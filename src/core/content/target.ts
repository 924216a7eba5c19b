import { loadChangeRequest } from '../change-requests/access.js';
import { changeRequestAppPath } from '../change-requests/present.js';
import type { Context } from '../context.js';
import { notFound } from '../errors.js';
import { TABLES, type ChangeRequestRecord, type RevisionRecord } from '../records.js';
import { requireSpace, type SpaceAccess } from '../spaces/access.js';
import { loadRevision } from './revision.js';

/**
 * Whose content a read is about: a space (its current revision) or one of its change requests (the
 * request's revision). The space and change request endpoints share everything past this point.
 */
export interface ContentTarget {
  readonly access: SpaceAccess;
  readonly revision: RevisionRecord;
  readonly changeRequest?: ChangeRequestRecord;
  /** The app path its pages are shown under (`/s/<space>` or `/s/<space>/~/changes/<number>`). */
  readonly appPath: string;
}

/** The current content of a space the caller may read. */
export async function spaceContent(ctx: Context, spaceId: string): Promise<ContentTarget> {
  const access = await requireSpace(ctx, spaceId, 'view', 'read its content');
  return { access, revision: await loadRevision(ctx.tx, access.space.revision), appPath: `/s/${spaceId}` };
}

/** A revision of a space the caller may read, by id: its live one, an older one, or one of a change request. */
export async function revisionContent(ctx: Context, spaceId: string, revisionId: string): Promise<ContentTarget> {
  const access = await requireSpace(ctx, spaceId, 'view', 'read its content');
  const revision = (await ctx.tx.get(TABLES.revisions, revisionId)) as RevisionRecord | undefined;
  if (!revision || revision.spaceId !== spaceId) throw notFound(`No revision ${revisionId} in space ${spaceId}`);
  return { access, revision, appPath: `/s/${spaceId}/~/revisions/${revisionId}` };
}

/** The content of a change request of a space the caller may read. */
export async function changeRequestContent(ctx: Context, spaceId: string, changeRequestId: string): Promise<ContentTarget> {
  const access = await loadChangeRequest(ctx, spaceId, changeRequestId, 'view', 'read its content');
  return {
    access,
    revision: await loadRevision(ctx.tx, access.changeRequest.revision),
    changeRequest: access.changeRequest,
    appPath: changeRequestAppPath(access.changeRequest),
  };
}
