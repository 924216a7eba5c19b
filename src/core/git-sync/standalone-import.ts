import type { WriteContext } from '../context.js';
import { insertChangeRequest } from '../change-requests/create.js';
import type { ChangeRequestRecord, RevisionRecord, SpaceRecord } from '../records.js';

/**
 * A standalone import (`standalone: true`: "a revision without updating the space primary content"): the
 * import's result becomes the revision of a new change request, open for review, whose base is the space's
 * revision, so that merging it brings the repository's changes into the space as any change request's do.
 */

/** The longest subject of a change request. */
const MAX_SUBJECT = 100;

/** A change request's subject from a commit message: its first line. */
export function subjectOf(message: string): string {
  const line = message.split('\n')[0].trim();
  return [...line].length > MAX_SUBJECT ? `${[...line].slice(0, MAX_SUBJECT - 1).join('')}…` : line;
}

/** Opens the change request of a standalone import, its id given (the merge's revision names it). */
export async function openImportChangeRequest(ctx: WriteContext, space: SpaceRecord, id: string, revision: RevisionRecord, message: string): Promise<ChangeRequestRecord> {
  return insertChangeRequest(ctx, space, { id, status: 'open', subject: subjectOf(message), revision: revision.id });
}
