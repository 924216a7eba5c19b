import { joinBytes } from './fetch-bytes.js';

/**
 * JSON made in a thread and sent on as it came. A large result of a job (a page's `format=document` form of
 * 1 MiB of Markdown is 7 to 14 MB of JSON) would otherwise be parsed on the event loop into an object graph,
 * then printed again into the response: 0.3 to 1 s of one turn, plus the collections of the graph, on a
 * 2-core machine (docs/limits.md). Instead the job gives the JSON's UTF-8 bytes (moved, not copied, between
 * threads), the operation puts a stand-in for the value in its result (`lazyJson`), and the pipeline
 * splices the bytes into the response (`serializeJson`). Whoever reads the stand-in's fields, a library
 * caller, gets the value, parsed then, once.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 bytes of a value's JSON, for a job to give back (and move: see buffersOf). */
export const jsonBytes = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value));

/** The bytes of each stand-in not yet read. */
const pending = new WeakMap<object, Uint8Array>();

/** While serializeJson runs: the bytes of the stand-ins met so far, in the order of their placeholders. */
let splicing: Uint8Array[] | undefined;

/**
 * What a stand-in serializes to while serializeJson runs: a string no client can have written, since it holds
 * a NUL and this process's random mark. serializeJson finds it, quoted, in the text and puts the bytes there.
 */
const MARK = `\u0000json-text:${[...crypto.getRandomValues(new Uint8Array(12))].map((byte) => byte.toString(16).padStart(2, '0')).join('')}:`;
const QUOTED_MARK = JSON.stringify(MARK).slice(0, -1);

/** Turns a stand-in into the plain object its bytes hold: its fields become the parsed value's. */
function materialize(holder: Record<string, unknown>): void {
  const bytes = pending.get(holder);
  if (bytes === undefined) return;
  pending.delete(holder);
  const value = JSON.parse(decoder.decode(bytes)) as Record<string, unknown>;
  for (const key of Object.keys(holder)) delete holder[key];
  delete holder.toJSON;
  // Defined, not assigned: a parsed "__proto__" is a field like the others.
  for (const key of Object.keys(value)) Object.defineProperty(holder, key, { value: value[key], writable: true, enumerable: true, configurable: true });
}

/**
 * A stand-in for the JSON object whose UTF-8 bytes are `bytes`, with the top-level `keys` it is known to
 * have: an object whose fields parse the bytes when one is first read or written, and which serializeJson
 * prints as the bytes themselves, unparsed. JSON.stringify elsewhere prints it as its value.
 */
export function lazyJson<T extends object>(bytes: Uint8Array, keys: readonly (keyof T & string)[]): T {
  const holder: Record<string, unknown> = {};
  pending.set(holder, bytes);
  for (const key of keys) {
    Object.defineProperty(holder, key, {
      enumerable: true,
      configurable: true,
      get() {
        materialize(holder);
        return holder[key];
      },
      set(value: unknown) {
        materialize(holder);
        holder[key] = value;
      },
    });
  }
  Object.defineProperty(holder, 'toJSON', {
    enumerable: false,
    configurable: true,
    value() {
      const unread = pending.get(holder);
      if (splicing !== undefined && unread !== undefined) return `${MARK}${splicing.push(unread) - 1}`;
      materialize(holder);
      return holder;
    },
  });
  return holder as T;
}

/**
 * A result's JSON as a response body: its text, as JSON.stringify prints it, or, when it holds stand-ins
 * (lazyJson), the UTF-8 bytes of that text with each stand-in's bytes where it stands.
 */
export function serializeJson(value: unknown): string | Uint8Array {
  const parts: Uint8Array[] = [];
  splicing = parts;
  let text: string;
  try {
    text = JSON.stringify(value);
  } finally {
    splicing = undefined;
  }
  if (parts.length === 0) return text;
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (let index = 0; index < parts.length; index++) {
    const placeholder = `${QUOTED_MARK}${index}"`;
    const at = text.indexOf(placeholder, from);
    pieces.push(encoder.encode(text.slice(from, at)), parts[index]);
    from = at + placeholder.length;
  }
  pieces.push(encoder.encode(text.slice(from)));
  return joinBytes(pieces);
}
