import type { LocalPlan } from '../content/import/local-ids.js';
import type { ImportPlan, PlannedPage } from '../content/import/plan.js';

/**
 * The id each local id of a plan was given when it was settled (settlePlan keeps the plan's shape: the same
 * pages in the same order, the same files), local id → id.
 */
export function settledIds(local: LocalPlan, settled: ImportPlan): Map<string, string> {
  const ids = new Map<string, string>();
  const pair = (before: readonly PlannedPage[], after: readonly PlannedPage[]) => {
    before.forEach((page, index) => {
      ids.set(page.id, after[index].id);
      pair(page.pages, after[index].pages);
    });
  };
  pair(local.pages, settled.pages);
  local.files.forEach((file, index) => ids.set(file.id, settled.files[index].id));
  return ids;
}
