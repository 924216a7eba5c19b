import * as v from 'valibot';
import { conflict } from '../errors.js';
import { writeOperation } from '../operation.js';
import { applyPatch } from '../patch.js';
import { TABLES, type ChangeRequestRecord } from '../records.js';
import { Id } from '../schemas.js';
import { loadChangeRequest } from './access.js';
import { presentChangeRequest } from './present.js';
import { ChangeRequestSchema, ChangeRequestSubject, SETTABLE_STATUSES } from './schemas.js';

/**
 * Updates a change request's subject and status. `status` moves freely among `draft`, `open` (submitted
 * for review) and `archived` (closed without merging; reopen it with draft or open); `merged` is set only
 * by a merge, and a merged request is final (409). Needs the edit level on the space; not a content change,
 * so a locked space allows it. `updatedAt` moves only when something changed.
 */
export const updateChangeRequest = writeOperation({
  name: 'updateChangeRequest',
  summary: 'Update the subject or status of a change request',
  params: { spaceId: Id, changeRequestId: Id },
  body: {
    subject: v.optional(ChangeRequestSubject),
    status: v.optional(v.picklist(SETTABLE_STATUSES)),
  },
  response: ChangeRequestSchema,
  async run(ctx, { spaceId, changeRequestId, subject, status }) {
    const { space, changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', 'change its change requests', {
      purge: ctx.tx,
    });
    if (changeRequest.status === 'merged' && (subject !== undefined || status !== undefined)) {
      throw conflict(`Change request ${changeRequest.number} is merged: it can no longer change`);
    }
    const patched = applyPatch(changeRequest, { subject, status });
    if (patched === changeRequest) return presentChangeRequest(ctx, changeRequest, space);
    const updated: ChangeRequestRecord = { ...patched, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.changeRequests, updated);
    return presentChangeRequest(ctx, updated, space);
  },
});
