import type { CompositionKind, SchemaNode } from './model.js';
import { isObject, resolve } from './refs.js';
import { constraintsOf, typesOf, valueText } from './schema-words.js';

/**
 * A schema expanded into a tree of SchemaNodes, bounded three ways: a `$ref` to a schema the node is
 * already inside of is a cycle and stops there; nothing deeper than MAX_DEPTH levels is expanded; and a
 * tree holds at most its `budget` of nodes. The tree grows level by level (breadth first), so that a
 * budget running out cuts the deepest fields, never the top-level ones.
 */

/** How many levels below a schema are expanded. */
export const MAX_DEPTH = 8;
/** How many properties of one object, and variants of one composition, are shown. */
export const MAX_PROPERTIES = 100;
/** How many enum members are shown. */
export const MAX_ENUM = 50;

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer E)[] ? E[] : T[K] };
type Node = Mutable<SchemaNode>;

/** A schema waiting to be expanded below its node. */
interface Pending {
  readonly node: Node;
  readonly schema: Record<string, any>;
  readonly depth: number;
  /** The `$ref`s of the schemas the node is inside of (its own included): meeting one again is a cycle. */
  readonly path: readonly string[];
}

/** A child schema of a node: a property, the items, the additional properties, or a variant. */
interface Child {
  readonly slot: 'property' | 'items' | 'additional' | 'variant';
  readonly raw: unknown;
  readonly name?: string;
  readonly required?: boolean;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** The composition a schema is made of, if any: the first of oneOf, anyOf, allOf that it has. */
function compositionOf(schema: Record<string, any>): { kind: CompositionKind; variants: unknown[] } | undefined {
  for (const kind of ['oneOf', 'anyOf', 'allOf'] as const) if (Array.isArray(schema[kind]) && schema[kind].length > 0) return { kind, variants: schema[kind] };
  return undefined;
}

/** A short name for a schema as a field's type: its `$ref`'s name, or its type (`array of Pet`). */
export function typeLabel(document: Record<string, any>, raw: unknown, depth = 0): string {
  const { value, name } = resolve(document, raw);
  if (name !== undefined) return name;
  if (!value) return 'any';
  const { types, nullable } = typesOf(value);
  const composition = compositionOf(value);
  let label: string;
  if (types.length === 0 && composition) label = composition.kind === 'allOf' ? 'all of' : composition.kind === 'oneOf' ? 'one of' : 'any of';
  else if (types.length === 0) label = isObject(value.properties) ? 'object' : value.const !== undefined ? typeof value.const : 'any';
  else label = types.map((type) => (type === 'array' ? `array of ${depth < 3 ? typeLabel(document, value.items, depth + 1) : 'any'}` : type)).join(' or ');
  return nullable ? `${label} or null` : label;
}

/** Makes the node of a schema (without its children) and lists the children it would expand to. */
function nodeOf(document: Record<string, any>, raw: unknown, path: readonly string[], name: string | undefined, required: boolean): { node: Node; schema?: Record<string, any>; refs: readonly string[] } {
  const { value, refs, name: refName } = resolve(document, raw);
  const schema = value ?? {};
  const { nullable } = typesOf(schema);
  const enumValues = Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;
  const shownEnum = enumValues?.slice(0, MAX_ENUM).map(valueText).filter((member): member is string => member !== undefined);
  const fallbackDescription = isObject(raw) ? text(raw.description) : undefined;
  const defaultText = schema.default === undefined ? undefined : valueText(schema.default);
  const node: Node = {
    ...(name !== undefined && { name }),
    type: typeLabel(document, raw),
    ...(refName !== undefined && { ref: refName }),
    required,
    ...((fallbackDescription ?? text(schema.description)) !== undefined && { description: fallbackDescription ?? text(schema.description) }),
    deprecated: schema.deprecated === true || (isObject(raw) && raw.deprecated === true),
    readOnly: schema.readOnly === true,
    writeOnly: schema.writeOnly === true,
    nullable,
    ...(shownEnum && { enum: shownEnum }),
    ...(enumValues && enumValues.length > MAX_ENUM && { moreEnum: enumValues.length - MAX_ENUM }),
    ...(defaultText !== undefined && { default: defaultText }),
    constraints: constraintsOf(schema),
    properties: [],
  };
  if (refs.some((ref) => path.includes(ref))) return { node: { ...node, cut: 'cycle' }, refs };
  return { node, ...(value && { schema: value }), refs };
}

/** What a node would expand to. */
function childrenOf(schema: Record<string, any>): Child[] {
  const children: Child[] = [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key: unknown) => typeof key === 'string') : []);
  if (isObject(schema.properties)) for (const [name, raw] of Object.entries(schema.properties).slice(0, MAX_PROPERTIES)) children.push({ slot: 'property', raw, name, required: required.has(name) });
  if (schema.items !== undefined && isObject(schema.items)) children.push({ slot: 'items', raw: schema.items });
  if (isObject(schema.additionalProperties)) children.push({ slot: 'additional', raw: schema.additionalProperties });
  const composition = compositionOf(schema);
  if (composition) for (const raw of composition.variants.slice(0, MAX_PROPERTIES)) children.push({ slot: 'variant', raw });
  return children;
}

/** Attaches a child's node where it belongs. */
function attach(parent: Node, child: Child, node: Node, schema: Record<string, any>): void {
  if (child.slot === 'property') parent.properties.push(node);
  else if (child.slot === 'items') parent.items = node;
  else if (child.slot === 'additional') parent.additional = node;
  else {
    const kind = compositionOf(schema)!.kind;
    parent.composition ??= { kind, variants: [] };
    (parent.composition.variants as SchemaNode[]).push(node);
  }
}

/**
 * A schema as a tree of at most `budget` nodes (at least its root). `name` and `required` describe the
 * root when it stands for a named field (a parameter).
 */
export function schemaTree(document: Record<string, any>, raw: unknown, budget: number, root: { name?: string; required?: boolean } = {}): SchemaNode {
  const first = nodeOf(document, raw, [], root.name, root.required ?? false);
  let left = budget - 1;
  const queue: Pending[] = first.schema && first.node.cut === undefined ? [{ node: first.node, schema: first.schema, depth: 0, path: first.refs }] : [];
  for (let at = 0; at < queue.length; at++) {
    const { node, schema, depth, path } = queue[at];
    const children = childrenOf(schema);
    if (children.length === 0) continue;
    if (depth >= MAX_DEPTH) {
      node.cut = 'depth';
      continue;
    }
    // All of a node's children or none: half an object's fields would read as its whole.
    if (children.length > left) {
      node.cut = 'budget';
      continue;
    }
    left -= children.length;
    if (isObject(schema.properties) && Object.keys(schema.properties).length > MAX_PROPERTIES) node.moreProperties = Object.keys(schema.properties).length - MAX_PROPERTIES;
    for (const child of children) {
      const made = nodeOf(document, child.raw, path, child.name, child.required ?? false);
      attach(node, child, made.node, schema);
      if (made.schema && made.node.cut === undefined) queue.push({ node: made.node, schema: made.schema, depth: depth + 1, path: [...path, ...made.refs] });
    }
  }
  return first.node;
}

/** How many nodes a tree holds. */
export function nodeCount(node: SchemaNode): number {
  let count = 1;
  for (const property of node.properties) count += nodeCount(property);
  if (node.items) count += nodeCount(node.items);
  if (node.additional) count += nodeCount(node.additional);
  for (const variant of node.composition?.variants ?? []) count += nodeCount(variant);
  return count;
}
