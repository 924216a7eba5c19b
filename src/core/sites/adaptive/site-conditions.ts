import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import { INDEXES, TABLES, type SiteRecord, type SiteSectionRecord, type SiteSpaceRecord } from '../../records.js';
import { conditionProblem } from './condition.js';
import { claimsOf, type Claims } from './json-schema.js';

/** Checks a condition about to be set on a section or a site space of `site` against the site's adaptive schema (400). */
export function assertSiteCondition(site: SiteRecord, condition: string): void {
  const problem = conditionProblem(condition, claimsOf(site.adaptiveSchema?.jsonSchema));
  if (!problem) return;
  const hint = site.adaptiveSchema === undefined && problem.includes('adaptive schema') ? ` (site ${site.id} has no adaptive schema yet: PUT one first)` : '';
  throw badRequest(`condition: ${problem}${hint}`);
}

/**
 * Checks that every condition already set on a site's sections and site spaces still holds against the
 * claims of a new schema; the first that does not is a 400 naming it, so that a schema change never
 * leaves a condition pointing at a claim that no longer exists.
 */
export async function assertConditionsFit(ctx: Context, site: SiteRecord, claims: Claims): Promise<void> {
  const parts = [
    ['section', (await ctx.tx.list(TABLES.siteSections, { index: INDEXES.siteSectionsBySite, value: site.id })).items],
    ['site space', (await ctx.tx.list(TABLES.siteSpaces, { index: INDEXES.siteSpacesBySite, value: site.id })).items],
  ] as const;
  for (const [what, records] of parts) {
    for (const record of records as (SiteSectionRecord | SiteSpaceRecord)[]) {
      if (record.condition === undefined) continue;
      const problem = conditionProblem(record.condition, claims);
      if (problem) throw badRequest(`jsonSchema: the condition of ${what} ${record.id} would no longer hold: ${problem}; change that condition first`);
    }
  }
}
