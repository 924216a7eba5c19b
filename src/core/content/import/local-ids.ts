import type { PrepareContext } from '../../context.js';
import { randomIds } from '../../ids.js';
import { pause } from '../../pause.js';
import { storeFile } from '../author/files.js';
import type { ImportPlan, PlannedPage } from './plan.js';

/**
 * An import is planned by a job (plan-job.ts), which has no ports: no ids, no blob store. It gives its pages
 * and files local ids (and links in the Markdown it prints point at them) and hands back the bytes of the
 * files; the main thread then gives each local id one of the platform's ids, in the order the plan made
 * them (as the plan would have taken them from `ctx.ids`), and stores the files (settlePlan).
 */

/** A file a plan imports, with its bytes, not yet in the blob store. */
export interface UnstoredFile {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  /** Its Git blob id, when the source named it (a Git tree): not hashed again. */
  readonly gitOid?: string;
}

/** What a source's planner makes: a plan with local ids, its files not stored. */
export interface UnsettledPlan extends Omit<ImportPlan, 'files'> {
  readonly files: readonly UnstoredFile[];
}

/** A plan as the job gives it: with what its local ids look like. */
export interface LocalPlan extends UnsettledPlan {
  /** What the plan's local ids start with: `L<nonce>n`, then their number. */
  readonly prefix: string;
  /** How many local ids it made, numbered from 0. */
  readonly ids: number;
}

/**
 * A source of local ids: `L<nonce>n0`, `L<nonce>n1`, ... The nonce is random, so that no text of the source can
 * spell one; the ids use only the characters of ids, so that links print as they will read.
 */
export function localIds(): { readonly prefix: string; next(): string; count(): number } {
  const prefix = `L${randomIds.id()}n`;
  let made = 0;
  return { prefix, next: () => `${prefix}${made++}`, count: () => made };
}

/** How many pages (or ids) get their ids (are made) between two pauses. */
const PAGES_PER_SLICE = 50;

/**
 * The plan with the platform's ids and its files stored (their bytes in the blob store). `reuse` gives some
 * local ids an id that exists already (a Git import's pages and files that were there at the last sync).
 */
export async function settlePlan(ctx: Pick<PrepareContext, 'ids' | 'blobs'>, plan: LocalPlan, reuse: ReadonlyMap<string, string> = new Map()): Promise<ImportPlan> {
  const { prefix } = plan;
  // Secure random ids take microseconds each: a thousand of them are made in slices too.
  const real: string[] = [];
  while (real.length < plan.ids) {
    const existing = reuse.get(`${prefix}${real.length}`);
    if (real.push(existing ?? ctx.ids.id()) % PAGES_PER_SLICE === 0) await pause();
  }
  const idOf = (local: string) => real[Number(local.slice(prefix.length))];
  const inText = new RegExp(`${prefix}(\\d+)`, 'g');
  let settled = 0;
  const settle = async (page: PlannedPage): Promise<PlannedPage> => {
    if (++settled % PAGES_PER_SLICE === 0) await pause();
    const markdown = page.markdown.includes(prefix) ? page.markdown.replace(inText, (_, number: string) => real[Number(number)]) : page.markdown;
    const pages: PlannedPage[] = [];
    for (const child of page.pages) pages.push(await settle(child));
    return { ...page, id: idOf(page.id), markdown, pages };
  };
  const pages: PlannedPage[] = [];
  for (const page of plan.pages) pages.push(await settle(page));
  const files = [];
  for (const { id, name, contentType, bytes, gitOid } of plan.files) files.push({ id: idOf(id), ...(await storeFile(ctx, name, contentType, bytes, gitOid)) });
  return { pages, files, skipped: plan.skipped };
}
