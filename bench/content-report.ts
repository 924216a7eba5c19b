import type { ContentRow } from './content-case.js';
import { fixed, outcome, renderTable, rowNotes } from './report.js';

/** The remark under the table for a row: the map nodes it reads or writes. */
function noteOf(row: ContentRow): string | undefined {
  if (row.nodesRead !== null) return `${row.nodesRead} content map nodes read a merge`;
  if (row.nodesWritten !== null) return `${row.nodesWritten} content map nodes written a batch`;
  return undefined;
}

/**
 * The merge's growth with the size of the space: p50 and p99 at the largest size over the smallest
 * (no target: the figure is reported), or nothing when fewer than two sizes were merged.
 */
export function mergeGrowth(rows: readonly ContentRow[]): string | null {
  const merges = rows.filter((row) => row.kind === 'content-merge' && row.valid).sort((a, b) => a.pages - b.pages);
  if (merges.length < 2) return null;
  const [small, large] = [merges[0], merges[merges.length - 1]];
  const ratio = (key: 'p50Ms' | 'p99Ms') => (small[key] && large[key] !== null ? (large[key]! / small[key]!).toFixed(2) : '-');
  return `merge at ${large.pages.toLocaleString('en-US')} pages over ${small.pages.toLocaleString('en-US')}: p50 ${ratio('p50Ms')}x, p99 ${ratio('p99Ms')}x (${large.nodesRead} vs ${small.nodesRead} map nodes read)`;
}

/** Renders the content case's table, then its notes, targets, invalid rows and the merge's growth. */
export function renderContentReport(rows: readonly ContentRow[]): string {
  const header = ['content case', 'pages', 'rounds', 'p50 ms', 'p99 ms', 'target', 'result'];
  const body = rows.map((row) => [
    row.id,
    row.pages.toLocaleString('en-US'),
    String(row.rounds),
    fixed(row.p50Ms, 3),
    fixed(row.p99Ms, 3),
    row.checks.map((check) => check.label).join(', ') || '-',
    outcome(row),
  ]);
  const notes = rows.flatMap((row) => rowNotes({ ...row, note: noteOf(row) }));
  const growth = mergeGrowth(rows);
  return [...renderTable(header, body, new Set([1, 2, 3, 4])), '', ...notes, ...(growth ? [`note  ${growth}`] : [])].join('\n');
}
