import type { Definition, Root, RootContent } from 'mdast';
import { badRequest } from '../../errors.js';
import { defineJob } from '../../job.js';
import { documentOfRoot, innerNodes, type DocumentBlock, type DocumentInline } from '../document.js';
import { parseMarkdown, stringifyMarkdown } from '../markdown.js';

/**
 * Reverting some blocks of a page's body (revert_page with `block`). The bodies are compared top-level
 * block by top-level block (each block's Markdown), as a diff: blocks both have, in order, are kept; the
 * others form changes, each a run of the current body's blocks standing where a run of the earlier body's
 * stood (added: no earlier block; deleted: no current block; modified or moved: both). A key names a
 * block as `format=document` gives it (a nested block or inline names the top-level block holding it),
 * looked up in the current body first, then in the earlier one (a deleted block has its key only
 * there); reverting it puts its whole change back as the earlier body had it. Everything else stays.
 */

/** A body's top-level blocks: the root child each comes from, its Markdown, and every key inside it. */
interface Unit {
  readonly child: number;
  readonly text: string;
}

/** The units of a parsed body, and which unit each key of its document form belongs to. */
function unitsOf(root: Root): { units: Unit[]; unitOfKey: Map<string, number> } {
  const { blocksOf } = documentOfRoot(root);
  const units: Unit[] = [];
  const unitOfKey = new Map<string, number>();
  blocksOf.forEach((blocks, child) => {
    if (blocks.length === 0) return;
    const unit = units.length;
    units.push({ child, text: stringifyMarkdown({ type: 'root', children: [root.children[child]] }) });
    const visit = (node: DocumentBlock | DocumentInline | { nodes?: unknown[] }) => {
      if ('key' in node && typeof node.key === 'string') unitOfKey.set(node.key, unit);
      for (const inner of innerNodes(node as { nodes?: unknown[] }) as (DocumentBlock | DocumentInline)[]) if (typeof inner === 'object' && inner !== null) visit(inner);
    };
    blocks.forEach(visit);
  });
  return { units, unitOfKey };
}

/** The largest number of cells of the comparison table; past it the differing middle is one change (a body of thousands of changed blocks). */
const MAX_TABLE_CELLS = 4_000_000;

/** A change: current units [from, to) stand where earlier units [earlierFrom, earlierTo) stood. */
interface Change {
  readonly from: number;
  readonly to: number;
  readonly earlierFrom: number;
  readonly earlierTo: number;
}

/** The changes between two lists of block texts: what a longest common subsequence leaves out. */
export function blockChanges(current: readonly string[], earlier: readonly string[]): Change[] {
  let start = 0;
  while (start < current.length && start < earlier.length && current[start] === earlier[start]) start++;
  let end = 0;
  while (end < current.length - start && end < earlier.length - start && current[current.length - 1 - end] === earlier[earlier.length - 1 - end]) end++;
  const a = current.slice(start, current.length - end);
  const b = earlier.slice(start, earlier.length - end);
  const pairs: [number, number][] = [];
  if (a.length > 0 && b.length > 0 && (a.length + 1) * (b.length + 1) <= MAX_TABLE_CELLS) {
    // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
    const width = b.length + 1;
    const lengths = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1] + 1 : Math.max(lengths[(i + 1) * width + j], lengths[i * width + j + 1]);
      }
    }
    for (let i = 0, j = 0; i < a.length && j < b.length; ) {
      if (a[i] === b[j]) pairs.push([start + i++, start + j++]);
      else if (lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) i++;
      else j++;
    }
  }
  pairs.push([current.length - end, earlier.length - end]);
  const changes: Change[] = [];
  let from = start;
  let earlierFrom = start;
  for (const [i, j] of pairs) {
    if (i > from || j > earlierFrom) changes.push({ from, to: i, earlierFrom, earlierTo: j });
    from = i + 1;
    earlierFrom = j + 1;
  }
  return changes;
}

/**
 * The current body with the changes holding the blocks `keys` name put back as `earlier` had them.
 * `where` names the page and the revision for error messages. A key in neither body is a 400.
 */
export function revertBlocks(current: string, earlier: string, keys: readonly string[], where: { page: string; revision: string }): string {
  const now = parseMarkdown(current);
  const before = parseMarkdown(earlier);
  const ours = unitsOf(now);
  const theirs = unitsOf(before);
  const changes = blockChanges(
    ours.units.map((unit) => unit.text),
    theirs.units.map((unit) => unit.text),
  );
  const changeOf = (unit: number | undefined, side: 'current' | 'earlier') =>
    unit === undefined ? undefined : changes.find((change) => (side === 'current' ? change.from <= unit && unit < change.to : change.earlierFrom <= unit && unit < change.earlierTo));
  const chosen = new Set<Change>();
  for (const key of keys) {
    const inCurrent = ours.unitOfKey.get(key);
    const inEarlier = theirs.unitOfKey.get(key);
    if (inCurrent === undefined && inEarlier === undefined) {
      throw badRequest(`block: no block ${key} in page ${where.page}, here or in revision ${where.revision} (keys are those of its format=document form)`);
    }
    // A key of an unchanged block has nothing to revert.
    const change = changeOf(inCurrent, 'current') ?? changeOf(inEarlier, 'earlier');
    if (change) chosen.add(change);
  }
  if (chosen.size === 0) return current;

  const earlierNodes = (change: Change) => theirs.units.slice(change.earlierFrom, change.earlierTo).map((unit) => before.children[unit.child]);
  const startingAt = new Map([...chosen].map((change) => [change.from, change]));
  const skipped = new Set(ours.units.flatMap((unit, i) => ([...chosen].some((change) => change.from <= i && i < change.to) ? [unit.child] : [])));
  const unitAt = new Map(ours.units.map((unit, i) => [unit.child, i]));
  const children: RootContent[] = [];
  now.children.forEach((node, child) => {
    const unit = unitAt.get(child);
    if (unit !== undefined && startingAt.has(unit)) children.push(...earlierNodes(startingAt.get(unit)!));
    if (!skipped.has(child)) children.push(node);
  });
  const atEnd = startingAt.get(ours.units.length);
  if (atEnd) children.push(...earlierNodes(atEnd));
  // Link definitions the restored blocks use that the current body no longer has.
  const used = new Set<string>();
  const visit = (node: RootContent) => {
    if (node.type === 'linkReference' || node.type === 'imageReference') used.add(node.identifier);
    if ('children' in node) (node.children as RootContent[]).forEach(visit);
  };
  [...chosen].flatMap(earlierNodes).forEach(visit);
  const defined = new Set(now.children.flatMap((node) => (node.type === 'definition' ? [node.identifier] : [])));
  for (const node of before.children) if (node.type === 'definition' && used.has(node.identifier) && !defined.has(node.identifier)) children.push(node as Definition);
  return stringifyMarkdown({ type: 'root', children });
}

/** What revertBlocks works on, as plain data. */
export interface RevertBlocksInput {
  readonly current: string;
  readonly earlier: string;
  readonly keys: readonly string[];
  readonly where: { readonly page: string; readonly revision: string };
}

/** revertBlocks as a job (markdown-work.ts): it parses both bodies. */
export const revertBlocksJob = defineJob<RevertBlocksInput, string>({
  name: 'revert-blocks',
  what: 'reverting blocks of a page',
  run: ({ current, earlier, keys, where }) => revertBlocks(current, earlier, keys, where),
});
