import type { Ports } from '../context.js';
import { openDraft, type RevisionDraft } from '../content/draft.js';
import { settlePlan } from '../content/import/local-ids.js';
import { applyPlan } from '../content/import/plan.js';
import { recordMovedPages } from '../content/moved-pages.js';
import { TABLES, type SpaceRecord } from '../records.js';
import { spaceScope } from '../scopes.js';
import { requireSpace } from '../spaces/access.js';
import type { FetchedRepository } from './fetch-repository.js';
import { recordOperation } from './git-sync-state.js';
import { writeAs, type GitImportCaller, type GitImportInput } from './queued-work.js';

/** What the caller is doing, for permission errors. */
export const IMPORT_DOING = 'import a Git repository';

/** Empties a draft: every page and file removed. */
async function emptyDraft(draft: RevisionDraft): Promise<void> {
  for (const id of await draft.childIds(null)) await draft.deletePage(id);
  for (const id of await draft.fileIds()) await draft.deleteFile(id);
}

/**
 * Makes the space's new revision from a repository read, in one write transaction that checks the
 * caller's permission again: the repository's pages and files replace the space's, and the outcome is
 * recorded as the operation's success.
 */
export async function applyImport(ports: Ports, caller: GitImportCaller, input: GitImportInput, repository: FetchedRepository): Promise<void> {
  const plan = await settlePlan(ports, repository.plan);
  await writeAs(ports, caller, async (ctx) => {
    // Imports and merges into one space queue instead of failing each other.
    await ctx.tx.lock(spaceScope(input.spaceId), 'exclusive');
    const { space } = await requireSpace(ctx, input.spaceId, 'triggerGitSync', IMPORT_DOING, { purge: ctx.tx });
    const draft = await openDraft(ctx, space.revision);
    await emptyDraft(draft);
    await applyPlan(ctx, draft, plan);
    const revision = await draft.commit({ parents: [space.revision], type: 'edits' });
    await recordMovedPages(ctx, space.id, space.revision, revision.id);
    const updated: SpaceRecord = { ...space, revision: revision.id, updatedAt: ctx.now };
    await ctx.tx.put(TABLES.spaces, updated);
    const operation = { state: 'success' as const, direction: 'import' as const, startedAt: input.startedAt, endedAt: ctx.now };
    await recordOperation(ctx.tx, space.id, input, operation, { operationId: input.operationId, now: ctx.now, synced: { commit: repository.commit.oid, revision: revision.id } });
  });
}
