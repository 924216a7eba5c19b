import * as v from 'valibot';
import type { Operation } from '../../core/operation.js';
import type { Platform } from '../../core/platform.js';

/** Every operation of the platform by name (platform.operations), which the tools are made of. */
export type Operations = Platform['operations'];

/**
 * Runs one operation for the tool's caller: checks `input` with the operation's own schema, then runs it as
 * the HTTP API would for the same token (same permissions, same errors).
 */
export type Runner = <O>(operation: Operation<any, O, any>, input: Record<string, unknown>) => Promise<O>;

/** One tool of the author server: a task over one or a few operations, its arguments taken from their schemas. */
export interface AuthorTool {
  /** The tool's name, e.g. `open_change_request`; also its route in the request log (`mcp:open_change_request`). */
  readonly name: string;
  /** A short title for people. */
  readonly title: string;
  /** What the tool does and what it changes, for the agent that chooses it. */
  readonly description: string;
  /** Its arguments: fields picked from its operations' schemas. */
  readonly input: v.GenericSchema<unknown, Record<string, unknown>>;
  /** `write` when it changes what is stored: what it costs in a rate-limit budget, and how it is annotated. */
  readonly access: 'read' | 'write';
  /** Does the task with validated arguments; answers a JSON object. */
  readonly run: (call: Runner, args: any) => Promise<Record<string, unknown>>;
}

/** The validated arguments of a tool whose input is `S`: an object schema, or the entries of one. */
type ArgsOf<S> = S extends v.GenericSchema ? v.InferOutput<S> : S extends v.ObjectEntries ? v.InferOutput<v.ObjectSchema<S, undefined>> : never;

/** Declares a tool; an `input` given as entries is the object schema of them. */
export function authorTool<S extends v.ObjectEntries | v.GenericSchema>(definition: {
  name: string;
  title: string;
  description: string;
  access: 'read' | 'write';
  input: S;
  run: (call: Runner, args: ArgsOf<S>) => Promise<Record<string, unknown>>;
}): AuthorTool {
  const input = isSchema(definition.input) ? definition.input : v.object(definition.input as v.ObjectEntries);
  return { ...definition, input: input as AuthorTool['input'] };
}

const isSchema = (value: unknown): value is v.GenericSchema => typeof (value as { kind?: unknown }).kind === 'string';

/** All the input entries of an operation: path, query and body fields in one object. */
function entriesOf(operation: Operation): v.ObjectEntries {
  return { ...operation.params, ...operation.query, ...(operation.body ?? {}) };
}

/**
 * Some fields of an operation's input, each with the description a tool's caller reads: the tool's schema
 * is the operation's for those fields, so a value the tool takes is one the operation takes. The fields
 * named in `required` must be given to the tool even where the operation has a default.
 */
export function fieldsOf<N extends string>(operation: Operation, fields: Readonly<Record<N, string>>, required: readonly N[] = []): Record<N, v.GenericSchema> {
  return describedFields(entriesOf(operation), fields, operation.name, required);
}

/** Some entries of an object schema (`owner`, for the error of a missing one), described, as fieldsOf takes them. */
export function describedFields<N extends string>(
  entries: v.ObjectEntries,
  fields: Readonly<Record<N, string>>,
  owner: string,
  required: readonly N[] = [],
): Record<N, v.GenericSchema> {
  const picked = {} as Record<N, v.GenericSchema>;
  for (const name of Object.keys(fields) as N[]) {
    const field = fieldOf(entries, name, owner);
    picked[name] = described(required.includes(name) ? requiredOf(field) : field, fields[name]);
  }
  return picked;
}

/** The schema an optional field wraps: the same rules, the value no longer optional. */
export function requiredOf(schema: v.GenericSchema): v.GenericSchema {
  return schema.type === 'optional' ? (schema as unknown as { wrapped: v.GenericSchema }).wrapped : schema;
}

/** A field of an object schema's entries; throws (at start, never for a caller) when the operation has no such field. */
export function fieldOf(entries: v.ObjectEntries, name: string, owner: string): v.GenericSchema {
  const field = entries[name];
  if (!field) throw new Error(`${owner} has no field ${name}`);
  return field as v.GenericSchema;
}

/** A schema with a description (kept optional when it was). */
export function described(schema: v.GenericSchema, description: string): v.GenericSchema {
  return v.pipe(schema, v.description(description));
}

/** The object result of an operation that answers a list or nothing: tool results are JSON objects. */
export const asObject = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value ?? null });
