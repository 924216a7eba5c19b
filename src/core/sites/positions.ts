import type { WriteContext } from '../context.js';
import { keyForMove, type ItemRef, type OrderedRecord, type Position, type SiblingGroup } from '../ordering/siblings.js';

/**
 * The site moves: position references turned into the ordering module's form, and the one write a
 * move makes (the item's new ordering key).
 */

type Pointer = { readonly type: string } & Readonly<Record<string, unknown>>;

/** A move body's `position` in the ordering module's form; each reference's kind is its `type`, its id in `idField`. */
export function positionOf(position: { before?: Pointer; after?: Pointer } | undefined, idField: string): Position {
  const ref = (pointer: Pointer | undefined): ItemRef | undefined => pointer && { kind: pointer.type, id: String(pointer[idField]) };
  return { before: ref(position?.before), after: ref(position?.after) };
}

/** Moves an item of `table` within its sibling group to `position` (absent: the end); see keyForMove for the 400 and 409 cases. */
export async function reorder<T extends OrderedRecord>(ctx: WriteContext, table: string, item: T, group: SiblingGroup, kind: string, position: Position): Promise<void> {
  const orderKey = await keyForMove(ctx.tx, group, { kind, id: item.id }, position);
  await ctx.tx.put(table, { ...item, orderKey });
}
