import { diff3Merge } from 'node-diff3';
import { normalizeMarkdown } from '../../content/markdown.js';
import { markdownExcess } from '../../content/markdown-limits.js';
import { defineJob } from '../../job.js';

/** What merging three versions of a Markdown body gives: the text, and whether some lines overlapped. */
export interface TextMerge {
  readonly text: string;
  readonly conflict: boolean;
}

/**
 * Merges two edits of a Markdown body line by line (diff3, node-diff3): changes to different lines
 * combine; where both sides changed the same or adjacent lines differently (a real overlap) the region
 * takes `theirs` lines, the change request's, and the merge reports a conflict. Identical changes on
 * both sides are not a conflict. A newly combined text is normalized like every stored body, unless it
 * goes beyond the limits of content/markdown-limits.ts (two edits that each kept them may, combined): a
 * merge does not fail on content, so it is kept as combined, and read as bodies stored before the limits.
 * `normalize` is how (commit.ts gives one that reads a long text off the event loop).
 */
export function mergeText(base: string, ours: string, theirs: string, normalize: (text: string) => string = mergedBody): TextMerge {
  if (ours === theirs || base === ours) return { text: theirs, conflict: false };
  if (base === theirs) return { text: ours, conflict: false };
  const regions = diff3Merge(ours.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  let conflict = false;
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) {
      conflict = true;
      lines.push(...region.conflict.b);
    }
  }
  const text = lines.join('\n');
  // The result is one of the sides when the other side's changes all lost a conflict: keep it as it was.
  if (text === theirs || text === ours) return { text, conflict };
  return { text: normalize(text), conflict };
}

/** A newly combined body as the merge stores it: normalized, unless it goes beyond the Markdown limits. */
export function mergedBody(text: string): string {
  return markdownExcess(text) !== undefined ? text : normalizeMarkdown(text);
}

/** mergedBody as a job (content/markdown-work.ts). */
export const mergedBodyJob = defineJob<string, string>({ name: 'merged-body', what: 'normalizing a merged page body', run: mergedBody });
