import * as v from 'valibot';
import { readOperation } from '../operation.js';
import { listQuery, mapPage, pageOf } from '../pagination.js';
import { INDEXES, TABLES, type ChangeRequestRecord } from '../records.js';
import { Id } from '../schemas.js';
import { requireSpace } from '../spaces/access.js';
import { loadChangeRequest } from './access.js';
import { presentChangeRequest } from './present.js';
import { ChangeRequestList, ChangeRequestSchema, ChangeRequestStatusSchema } from './schemas.js';

/** Gets a change request by its id or its number in the space. Needs to read the space. */
export const getChangeRequest = readOperation({
  name: 'getChangeRequest',
  summary: 'Get a change request by its id or number',
  params: { spaceId: Id, changeRequestId: Id },
  response: ChangeRequestSchema,
  async run(ctx, { spaceId, changeRequestId }) {
    const { space, changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'view', 'read its change requests');
    return presentChangeRequest(ctx, changeRequest, space);
  },
});

/**
 * Lists the change requests of a space with one status (default `open`), newest first (by number), and
 * optionally only those `contributor` (a user id) created or changed the content of.
 */
export const listChangeRequests = readOperation({
  name: 'listChangeRequests',
  summary: 'List the change requests of a space',
  params: { spaceId: Id },
  query: { ...listQuery, status: v.optional(ChangeRequestStatusSchema, 'open'), contributor: v.optional(Id) },
  response: ChangeRequestList,
  async run(ctx, { spaceId, status, contributor, ...paging }) {
    const { space } = await requireSpace(ctx, spaceId, 'view', 'read its change requests');
    const matches = (record: unknown) => {
      const changeRequest = record as ChangeRequestRecord;
      return changeRequest.status === status && (contributor === undefined || changeRequest.contributors.includes(contributor));
    };
    const page = await pageOf(ctx.tx, TABLES.changeRequests, { index: INDEXES.changeRequestsBySpace, value: spaceId, order: 'desc', where: matches }, paging);
    return mapPage(page, (record) => presentChangeRequest(ctx, record as ChangeRequestRecord, space));
  },
});
