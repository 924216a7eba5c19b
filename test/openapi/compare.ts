/**
 * Compares two JSON Schemas field by field, for the test against the public API's document: where both
 * define a field, can ours send a type or an enum value that theirs does not allow? (A client written
 * against the public API must understand what we send; we may send less, never more.)
 */

type Schema = Record<string, any>;

/** What a schema allows, with $refs resolved and allOf/oneOf/anyOf folded in. */
export interface Summary {
  /** The JSON types it allows (`integer` for whole numbers); null when any type goes. */
  types: Set<string> | null;
  /** The JSON-encoded scalar values it allows; null when its scalar types take any value. */
  values: Set<string> | null;
  /** The summaries of its properties. */
  properties: Map<string, Summary>;
  /** The summary of its array items, if it describes any. */
  items: Summary | null;
  /** True where a recursive schema refers to itself: what it allows there is not known, so nothing is compared. */
  open: boolean;
}

/** One field where ours allows what theirs does not. */
export interface Difference {
  /** The dotted path of the field in the response body, `[]` for array items, `(body)` for the root. */
  field: string;
  ours: string;
  theirs: string;
}

const SCALARS = ['string', 'number', 'integer', 'boolean'];

function typeOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const empty = (): Summary => ({ types: null, values: null, properties: new Map(), items: null, open: false });
const unknown = (): Summary => ({ ...empty(), open: true });

/**
 * Either of two summaries (oneOf/anyOf): what one allows or the other. The alternatives are read as
 * variants: a field some of them define is compared with what those allow (a variant that leaves it out
 * is taken not to send it), as a client of the public API reads them.
 */
function either(a: Summary, b: Summary): Summary {
  // One alternative unknown: any field may take any value there.
  if (a.open || b.open) return unknown();
  return {
    types: a.types && b.types ? new Set([...a.types, ...b.types]) : null,
    values: valuesOfEither(a, b),
    properties: mergeProperties(a.properties, b.properties, either),
    items: a.items && b.items ? either(a.items, b.items) : (a.items ?? b.items),
    open: false,
  };
}

/** Scalar values of either: unconstrained as soon as one side takes any value of a scalar type. */
function valuesOfEither(a: Summary, b: Summary): Set<string> | null {
  const constrains = (summary: Summary) => summary.values !== null || (summary.types !== null && ![...summary.types].some((type) => SCALARS.includes(type)));
  if (!constrains(a) || !constrains(b)) return null;
  return new Set([...(a.values ?? []), ...(b.values ?? [])]);
}

const isEmpty = (summary: Summary) =>
  !summary.open && summary.types === null && summary.values === null && summary.properties.size === 0 && summary.items === null;

/** Both of two summaries (allOf): what both allow. */
function both(a: Summary, b: Summary): Summary {
  // An unknown part of an allOf can only narrow what the other allows; alone it stays unknown.
  if (a.open) return isEmpty(b) ? a : b;
  if (b.open) return isEmpty(a) ? b : a;
  const types = a.types && b.types ? intersectTypes(a.types, b.types) : (a.types ?? b.types);
  const values = a.values && b.values ? new Set([...a.values].filter((value) => b.values!.has(value))) : (a.values ?? b.values);
  return {
    types,
    values,
    properties: mergeProperties(a.properties, b.properties, both),
    items: a.items && b.items ? both(a.items, b.items) : (a.items ?? b.items),
    open: false,
  };
}

function intersectTypes(a: Set<string>, b: Set<string>): Set<string> {
  const result = new Set<string>();
  for (const type of a) {
    if (b.has(type)) result.add(type);
    else if (type === 'integer' && b.has('number')) result.add('integer');
    else if (type === 'number' && b.has('integer')) result.add('integer');
  }
  return result;
}

function mergeProperties(a: Map<string, Summary>, b: Map<string, Summary>, merge: (x: Summary, y: Summary) => Summary) {
  const result = new Map(a);
  for (const [name, summary] of b) result.set(name, result.has(name) ? merge(result.get(name)!, summary) : summary);
  return result;
}

/** The summaries of a document's $refs, each computed once: the public document reuses its schemas a lot. */
interface Refs {
  readonly root: Schema;
  readonly done: Map<string, Summary>;
  readonly inProgress: Set<string>;
}

const refsOf = new WeakMap<Schema, Refs>();

/** Summarises a schema of a document (`root` resolves its local $refs). */
export function summarize(schema: Schema | boolean | undefined, root: Schema): Summary {
  let refs = refsOf.get(root);
  if (!refs) refsOf.set(root, (refs = { root, done: new Map(), inProgress: new Set() }));
  return summarizeIn(schema, refs);
}

function summarizeRef(ref: string, refs: Refs): Summary {
  const done = refs.done.get(ref);
  if (done) return done;
  // Where a recursive schema refers to itself, what it allows is not known yet.
  if (refs.inProgress.has(ref)) return unknown();
  refs.inProgress.add(ref);
  const summary = summarizeIn(resolve(refs.root, ref), refs);
  refs.inProgress.delete(ref);
  refs.done.set(ref, summary);
  return summary;
}

function summarizeIn(schema: Schema | boolean | undefined, refs: Refs): Summary {
  if (schema === undefined || typeof schema === 'boolean') return empty();
  let summary = empty();
  if (typeof schema.$ref === 'string') summary = both(summary, summarizeRef(schema.$ref, refs));
  if (schema.type !== undefined) {
    summary = both(summary, { ...empty(), types: new Set(Array.isArray(schema.type) ? schema.type : [schema.type]) });
  }
  const listed = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  if (listed) {
    summary = both(summary, { ...empty(), types: new Set(listed.map(typeOfValue)), values: new Set(listed.map((value: unknown) => JSON.stringify(value))) });
  }
  if (schema.properties) {
    const properties = new Map(Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => [name, summarizeIn(property, refs)]));
    summary = both(summary, { ...empty(), properties });
  }
  if (schema.items && typeof schema.items === 'object') summary = both(summary, { ...empty(), items: summarizeIn(schema.items, refs) });
  for (const member of (schema.allOf ?? []) as Schema[]) summary = both(summary, summarizeIn(member, refs));
  const alternatives = [...((schema.oneOf ?? []) as Schema[]), ...((schema.anyOf ?? []) as Schema[])];
  if (alternatives.length > 0) {
    summary = both(summary, alternatives.map((alternative) => summarizeIn(alternative, refs)).reduce(either));
  }
  return summary;
}

function resolve(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, not ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<Schema>((node, part) => {
      if (!node || !(part in node)) throw new Error(`Unresolvable $ref ${ref}`);
      return node[part];
    }, root);
}

const showTypes = (types: Set<string> | null) => (types ? [...types].sort().join(' | ') : 'any type');
const showValues = (values: Set<string> | null) => (values ? `one of ${[...values].sort().join(', ')}` : 'any value');

/** The fields both define where ours allows a type or a value theirs does not. */
export function compareSummaries(ours: Summary, theirs: Summary, field = '(body)'): Difference[] {
  if (ours.open || theirs.open) return [];
  const differences: Difference[] = [];
  if (theirs.types) {
    const allowed = (type: string) => theirs.types!.has(type) || (type === 'integer' && theirs.types!.has('number'));
    if (!ours.types || ![...ours.types].every(allowed)) {
      differences.push({ field, ours: `type ${showTypes(ours.types)}`, theirs: `type ${showTypes(theirs.types)}` });
    }
  }
  if (theirs.values) {
    const scalarTypes = ours.types ? [...ours.types].filter((type) => SCALARS.includes(type)) : SCALARS;
    const extra = ours.values ? [...ours.values].filter((value) => !theirs.values!.has(value)) : null;
    if ((ours.values === null && scalarTypes.length > 0) || (extra && extra.length > 0)) {
      differences.push({ field, ours: showValues(ours.values), theirs: showValues(theirs.values) });
    }
  }
  for (const [name, property] of ours.properties) {
    const other = theirs.properties.get(name);
    if (other) differences.push(...compareSummaries(property, other, field === '(body)' ? name : `${field}.${name}`));
  }
  if (ours.items && theirs.items) differences.push(...compareSummaries(ours.items, theirs.items, field === '(body)' ? '[]' : `${field}[]`));
  return differences;
}

/** Follows $refs until a schema that is not only a $ref. */
function deref(schema: Schema | boolean | undefined, root: Schema): Schema | undefined {
  let current = schema;
  for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string' && hops < 100; hops++) current = resolve(root, current.$ref);
  return typeof current === 'object' ? current : undefined;
}

/** The alternatives of a schema (its top-level oneOf/anyOf, through $refs), or the schema itself. */
function alternativesOf(schema: Schema, root: Schema): Schema[] {
  const resolved = deref(schema, root);
  if (!resolved) return [];
  const listed = [...((resolved.oneOf ?? []) as Schema[]), ...((resolved.anyOf ?? []) as Schema[])];
  return listed.length === 0 ? [resolved] : listed.flatMap((alternative) => alternativesOf(alternative, root));
}

/** The fields a schema requires: its own and its allOf parts', and those every alternative of a oneOf/anyOf requires. */
function requiredOf(schema: Schema | undefined, root: Schema): Set<string> {
  const resolved = deref(schema, root);
  if (!resolved) return new Set();
  const required = new Set<string>((resolved.required ?? []) as string[]);
  for (const part of (resolved.allOf ?? []) as Schema[]) for (const name of requiredOf(part, root)) required.add(name);
  const alternatives = [...((resolved.oneOf ?? []) as Schema[]), ...((resolved.anyOf ?? []) as Schema[])];
  if (alternatives.length > 0) {
    const each = alternatives.map((alternative) => requiredOf(alternative, root));
    for (const name of each[0]) if (each.every((set) => set.has(name))) required.add(name);
  }
  return required;
}

/** The schemas a schema gives a property (its own and its allOf and oneOf parts'), as one allOf. */
function propertyOf(schema: Schema | undefined, name: string, root: Schema): Schema | undefined {
  const resolved = deref(schema, root);
  if (!resolved) return undefined;
  const parts: Schema[] = [];
  if (resolved.properties?.[name] !== undefined) parts.push(resolved.properties[name]);
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])] as Schema[]) {
    const found = propertyOf(part, name, root);
    if (found) parts.push(found);
  }
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { allOf: parts };
}

/** The property names a schema defines anywhere in its parts. */
function propertyNames(schema: Schema | undefined, root: Schema, into = new Set<string>()): Set<string> {
  const resolved = deref(schema, root);
  if (!resolved) return into;
  for (const name of Object.keys(resolved.properties ?? {})) into.add(name);
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])] as Schema[]) propertyNames(part, root, into);
  return into;
}

/** The items schema of an array schema (through its parts). */
function itemsOf(schema: Schema | undefined, root: Schema): Schema | undefined {
  const resolved = deref(schema, root);
  if (!resolved) return undefined;
  if (resolved.items && typeof resolved.items === 'object') return resolved.items;
  for (const part of (resolved.allOf ?? []) as Schema[]) {
    const found = itemsOf(part, root);
    if (found) return found;
  }
  return undefined;
}

/** The values an alternative's `type` property takes (its discriminator), or null when it does not fix them. */
function discriminatorOf(schema: Schema, root: Schema): Set<string> | null {
  const property = propertyOf(schema, 'type', root);
  return property === undefined ? null : summarize(property, root).values;
}

/** Where the required-field walk is: the properties walked into on the way down. */
interface Walk {
  readonly ourRoot: Schema;
  readonly theirRoot: Schema;
  readonly names: readonly string[];
  /** Property names not walked into (their requirements are still checked at the level that holds them). */
  readonly skip: ReadonlySet<string>;
}

/**
 * The fields theirs requires that ours does not (`ours: optional` or `absent`): at every level both define,
 * variant by variant where both are a oneOf of variants told apart by `type` (a page: document, group,
 * link, computed), so that each of our variants must send what the matching variant of theirs requires.
 * A property already walked into twice on the way down (a page's subpages) is not walked into again.
 */
export function compareRequired(ours: Schema, theirs: Schema, ourRoot: Schema, theirRoot: Schema, skip: ReadonlySet<string> = new Set()): Difference[] {
  return requiredIn(ours, theirs, '(body)', { ourRoot, theirRoot, names: [], skip });
}

function requiredIn(ours: Schema, theirs: Schema, field: string, walk: Walk): Difference[] {
  const ourAlternatives = alternativesOf(ours, walk.ourRoot);
  const theirAlternatives = alternativesOf(theirs, walk.theirRoot);
  const differences: Difference[] = [];
  for (const our of ourAlternatives) {
    const kinds = theirAlternatives.length > 1 ? discriminatorOf(our, walk.ourRoot) : null;
    const matching =
      kinds === null ? [] : theirAlternatives.filter((their) => [...(discriminatorOf(their, walk.theirRoot) ?? [])].some((kind) => kinds.has(kind)));
    if (matching.length === 0) differences.push(...requiredPair(our, theirs, field, walk));
    for (const their of matching) differences.push(...requiredPair(our, their, `${field === '(body)' ? '' : field}[type=${[...kinds!].join('|')}]`, walk));
  }
  return dedupe(differences);
}

function requiredPair(ours: Schema, theirs: Schema, field: string, walk: Walk): Difference[] {
  const differences: Difference[] = [];
  const ourRequired = requiredOf(ours, walk.ourRoot);
  const ourNames = propertyNames(ours, walk.ourRoot);
  const join = (name: string) => (field === '(body)' || field === '' ? name : `${field}.${name}`);
  for (const name of requiredOf(theirs, walk.theirRoot)) {
    if (!ourRequired.has(name)) differences.push({ field: join(name), ours: ourNames.has(name) ? 'optional' : 'absent', theirs: 'required' });
  }
  for (const name of ourNames) {
    // A recursive schema (a page's subpages) is walked twice down, then no further.
    if (walk.skip.has(name) || walk.names.filter((seen) => seen === name).length >= 2) continue;
    const our = propertyOf(ours, name, walk.ourRoot);
    const their = propertyOf(theirs, name, walk.theirRoot);
    if (our && their) differences.push(...requiredIn(our, their, join(name), { ...walk, names: [...walk.names, name] }));
  }
  const ourItems = itemsOf(ours, walk.ourRoot);
  const theirItems = itemsOf(theirs, walk.theirRoot);
  if (ourItems && theirItems) differences.push(...requiredIn(ourItems, theirItems, field === '(body)' ? '[]' : `${field}[]`, walk));
  return differences;
}

function dedupe(differences: Difference[]): Difference[] {
  const seen = new Set<string>();
  return differences.filter((difference) => {
    const key = `${difference.field} ${difference.ours}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
