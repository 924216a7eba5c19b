import type { JsonSchema } from '@valibot/to-json-schema';

/**
 * Moves the object schemas that the document repeats (an organization in every organization response, a
 * page in every content response) into `components.schemas`, and refers to them with `$ref`. The converter
 * inlines every schema, so without this the document repeats the same large objects hundreds of times,
 * which makes it slow to download and to render in the reference page.
 */

/** Objects smaller than this (in JSON characters) stay inline: a reference would not make them easier to read. */
const MIN_SIZE = 200;

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const pascal = (text: string) => text.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_, __, c: string) => c.toUpperCase()).replace(/[^a-zA-Z0-9]/g, '');

/** The key of a value (equal for equal JSON) and the length of its JSON text. */
interface Keyed {
  readonly key: string;
  readonly size: number;
}

/**
 * Keys values by their JSON (hash-consing): an object's key is built from its children's short keys, so
 * keying every node of a large schema stays linear, where stringifying each node anew would not.
 */
function keyer(): (value: unknown) => Keyed {
  const keyed = new WeakMap<object, Keyed>();
  const ids = new Map<string, string>();
  const keyOf = (value: unknown): Keyed => {
    if (typeof value !== 'object' || value === null) {
      const text = JSON.stringify(value) ?? 'null';
      return { key: text, size: text.length };
    }
    let known = keyed.get(value);
    if (known === undefined) {
      const parts = Array.isArray(value)
        ? value.map((item) => keyOf(item))
        : Object.entries(value)
            .filter(([, field]) => field !== undefined)
            .map(([name, field]) => {
              const child = keyOf(field);
              return { key: `${JSON.stringify(name)}:${child.key}`, size: name.length + 3 + child.size };
            });
      const shape = `${Array.isArray(value) ? '[' : '{'}${parts.map((part) => part.key).join(',')}`;
      let key = ids.get(shape);
      if (key === undefined) ids.set(shape, (key = `#${ids.size}`));
      known = { key, size: parts.reduce((total, part) => total + part.size + 1, 1) };
      keyed.set(value, known);
    }
    return known;
  };
  return keyOf;
}

/** Visits every subschema of a schema, children first. */
function visit(schema: unknown, fn: (schema: Schema) => void): void {
  if (Array.isArray(schema)) schema.forEach((item) => visit(item, fn));
  if (!isSchema(schema)) return;
  for (const value of Object.values(schema)) visit(value, fn);
  fn(schema);
}

const isCandidate = (schema: Schema, size: number) => schema.type === 'object' && isSchema(schema.properties) && size >= MIN_SIZE;

/** A name for an object schema: its `object` value, `<Item>List` for a list envelope, else where it was met. */
function nameFor(schema: Schema, hint: string): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const object = properties.object?.const;
  if (typeof object === 'string') return pascal(object);
  const item = properties.items?.type === 'array' ? properties.items.items : undefined;
  if (isSchema(item) && 'count' in properties) {
    // The item is rewritten first, so a shared item is a reference by now: the list takes its name.
    return typeof item.$ref === 'string' ? `${item.$ref.split('/').pop()}List` : `${nameFor(item, 'Item')}List`;
  }
  return pascal(hint);
}

/**
 * Rewrites schemas so that every large object schema met at least twice in all of them becomes a component.
 * `slots` are the document's schemas, each with a name to use when nothing better names it; `taken` are
 * the component names already in use. Returns the rewritten schemas, in order, and the components to add.
 */
export function extractComponents(
  slots: readonly { schema: JsonSchema; hint: string }[],
  taken: ReadonlySet<string>,
): { schemas: JsonSchema[]; components: Record<string, JsonSchema> } {
  const keyOf = keyer();
  const counts = new Map<string, number>();
  for (const { schema } of slots) {
    visit(schema, (node) => {
      const { key, size } = keyOf(node);
      if (isCandidate(node, size)) counts.set(key, (counts.get(key) ?? 0) + 1);
    });
  }
  const names = new Map<string, string>();
  const used = new Set(taken);
  const components: Record<string, JsonSchema> = {};

  function rewrite(value: unknown, hint: string): unknown {
    if (Array.isArray(value)) return value.map((item) => rewrite(item, hint));
    if (!isSchema(value)) return value;
    const { key } = keyOf(value);
    if ((counts.get(key) ?? 0) >= 2) {
      let name = names.get(key);
      if (!name) {
        const content = rewriteChildren(value, hint);
        const base = nameFor(content, hint) || 'Schema';
        name = base;
        for (let n = 2; used.has(name); n++) name = `${base}${n}`;
        used.add(name);
        names.set(key, name);
        components[name] = content;
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    return rewriteChildren(value, hint);
  }

  function rewriteChildren(schema: Schema, hint: string): Schema {
    const out: Schema = {};
    for (const [field, value] of Object.entries(schema)) {
      if (field === 'properties' && isSchema(value)) {
        out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, rewrite(property, name)]));
      } else out[field] = rewrite(value, hint);
    }
    return out;
  }

  // A whole slot (a response, a body) repeated elsewhere becomes a component too, referred to from each.
  return { schemas: slots.map(({ schema, hint }) => rewrite(schema, hint) as JsonSchema), components };
}
