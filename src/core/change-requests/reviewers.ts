import * as v from 'valibot';
import type { Context } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { readOperation, writeOperation } from '../operation.js';
import { listQuery, listSchema, mapPage, pageOf } from '../pagination.js';
import { findMembership } from '../permissions.js';
import { changeRequestReviewerId, INDEXES, TABLES, type ChangeRequestRecord, type ChangeRequestReviewerRecord, type SpaceRecord } from '../records.js';
import { roleAtLeast } from '../roles.js';
import { Id, Timestamp, UserSchema } from '../schemas.js';
import { contentLevels } from '../spaces/levels.js';
import { loadUser, presentUser } from '../users/present.js';
import { loadChangeRequest } from './access.js';
import { ChangeRequestSubject } from './schemas.js';

// Review requests of a change request, as the public API has them (requestReviewersForChangeRequest,
// getRequestedReviewersByChangeRequestId, removeRequestedReviewerFromChangeRequest): users only, not teams.

/** The most users one request asks. */
export const MAX_REVIEWERS_PER_REQUEST = 50;

/** A user asked to review a change request. */
export const RequestedReviewerSchema = v.object({
  object: v.literal('change-request-requested-reviewer'),
  kind: v.literal('user'),
  user: UserSchema,
  requestedBy: UserSchema,
  revision: v.string(),
  createdAt: Timestamp,
});

const params = { spaceId: Id, changeRequestId: Id };

function present(ctx: Context, record: ChangeRequestReviewerRecord): Promise<v.InferInput<typeof RequestedReviewerSchema>> {
  return Promise.all([loadUser(ctx, record.userId), loadUser(ctx, record.requestedBy)]).then(([user, requestedBy]) => ({
    object: 'change-request-requested-reviewer' as const,
    kind: 'user' as const,
    user: presentUser(ctx, user),
    requestedBy: presentUser(ctx, requestedBy),
    revision: record.revision,
    createdAt: record.createdAt,
  }));
}

/** Lists the users asked to review a change request, first asked first. Needs to read the space. */
export const listRequestedReviewers = readOperation({
  name: 'listRequestedReviewers',
  summary: 'List the users asked to review a change request',
  params,
  query: listQuery,
  response: listSchema(RequestedReviewerSchema),
  async run(ctx, { spaceId, changeRequestId, ...paging }) {
    const { changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'view', 'read its change requests');
    const page = await pageOf(ctx.tx, TABLES.changeRequestReviewers, { index: INDEXES.changeRequestReviewersByChangeRequest, value: changeRequest.id }, paging);
    return mapPage(page, (record) => present(ctx, record as ChangeRequestReviewerRecord));
  },
});

/**
 * Asks users to review a change request: each must be a member of the space's organization with the
 * review level or above on the space (400 names the first that is not). A draft becomes `open` (submitted
 * for review); `subject`, when given, replaces the subject. Asking a user again renews the request at the
 * current revision. Needs the edit level; 409 for a merged or archived request.
 */
export const requestReviewers = writeOperation({
  name: 'requestReviewers',
  summary: 'Ask users to review a change request',
  params,
  body: {
    users: v.pipe(
      v.array(Id),
      v.minLength(1, 'must name at least one user'),
      v.maxLength(MAX_REVIEWERS_PER_REQUEST, `must name at most ${MAX_REVIEWERS_PER_REQUEST} users`),
    ),
    subject: v.optional(ChangeRequestSubject),
  },
  response: v.object({ users: v.array(RequestedReviewerSchema) }),
  async run(ctx, { spaceId, changeRequestId, users, subject }) {
    const { space, changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', 'ask for reviews of its change requests', { purge: ctx.tx });
    if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
      throw conflict(`Change request ${changeRequest.number} is ${changeRequest.status}: set its status to draft or open to ask for reviews`);
    }
    const unique = [...new Set(users)];
    for (const userId of unique) await assertCanReview(ctx, space, userId, `users.${users.indexOf(userId)}`);
    const records = unique.map(
      (userId): ChangeRequestReviewerRecord => ({
        id: changeRequestReviewerId(changeRequest.id, userId),
        spaceId,
        changeRequestId: changeRequest.id,
        userId,
        requestedBy: ctx.actor.userId,
        revision: changeRequest.revision,
        createdAt: ctx.now,
      }),
    );
    for (const record of records) await ctx.tx.put(TABLES.changeRequestReviewers, record);
    const submitted: ChangeRequestRecord = {
      ...changeRequest,
      status: 'open',
      ...(subject !== undefined && { subject }),
      updatedAt: ctx.now,
    };
    if (submitted.status !== changeRequest.status || submitted.subject !== changeRequest.subject) await ctx.tx.put(TABLES.changeRequests, submitted);
    return { users: await Promise.all(records.map((record) => present(ctx, record))) };
  },
});

/** 400 unless `userId` is a member of the space's organization with the review level on the space. */
async function assertCanReview(ctx: Context, space: SpaceRecord, userId: string, field: string): Promise<void> {
  const member = await findMembership(ctx, space.organizationId, userId);
  const level = member && (await contentLevels(ctx, space.organizationId, member)).space(space);
  // One message whether the user is unknown, outside the organization or below review: nothing more leaks.
  if (!roleAtLeast(level, 'review')) throw badRequest(`${field}: ${userId} is not a member who can review space ${space.id} (the review level or above)`);
}

/**
 * Withdraws the request to a user to review a change request. Answers 205 whether or not the user was asked
 * (the public API answers 204 when not: a route here has one success status, and either way the user is
 * not asked afterwards). Needs the edit level.
 */
export const removeRequestedReviewer = writeOperation({
  name: 'removeRequestedReviewer',
  summary: 'Withdraw a request to review a change request',
  params: { ...params, userId: Id },
  response: null,
  async run(ctx, { spaceId, changeRequestId, userId }) {
    const { changeRequest } = await loadChangeRequest(ctx, spaceId, changeRequestId, 'edit', 'ask for reviews of its change requests', { purge: ctx.tx });
    const id = changeRequestReviewerId(changeRequest.id, userId);
    if (await ctx.tx.get(TABLES.changeRequestReviewers, id)) await ctx.tx.delete(TABLES.changeRequestReviewers, id);
  },
});
