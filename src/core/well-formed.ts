/**
 * Well-formed text. JSON allows a lone UTF-16 surrogate (`"\ud800"`), which no Unicode encoding can carry:
 * `encodeURIComponent` throws on one, and a client decoding it as UTF-8 sees garbage. Input is checked once,
 * in parseOrThrow (malformedText); text already stored, or cut by the platform, is made safe where it is
 * encoded (uriComponent) or cut (cutText).
 */

/** The deepest nesting of arrays and objects an input may have (a JSON body of 1 MiB could nest 500,000 levels). */
export const MAX_INPUT_DEPTH = 256;

/** What malformedText found: where (keys from the outside in), and what is wrong there. */
export interface MalformedText {
  /**
   * The keys and indexes leading to it; for a bad key, the key itself (made well-formed) comes last. For
   * nesting, only the top-level field (the whole path would be hundreds of keys long).
   */
  readonly path: readonly string[];
  /** A lone surrogate in a string value, one in an object key, or nesting deeper than MAX_INPUT_DEPTH. */
  readonly problem: 'value' | 'key' | 'depth';
  /** For `value` and `key`: the index of the first lone surrogate in the string. */
  readonly index: number;
}

/** The index of the first lone surrogate in text that is not well-formed. */
function loneSurrogateAt(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) return i;
  }
  return -1;
}

/** What the walk returns on a find: the path is built in reverse as the recursion unwinds. */
interface Found {
  reversed: string[];
  problem: MalformedText['problem'];
  index: number;
}

function walk(value: unknown, depth: number): Found | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : { reversed: [], problem: 'value', index: loneSurrogateAt(value) };
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= MAX_INPUT_DEPTH) return { reversed: [], problem: 'depth', index: -1 };
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = walk(value[index], depth + 1);
      if (found) {
        found.reversed.push(String(index));
        return found;
      }
    }
    return undefined;
  }
  // Only plain objects (what JSON.parse makes): a library caller's class instances are the schema's to judge.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const fields = value as Record<string, unknown>;
  for (const key in fields) {
    if (!key.isWellFormed()) return { reversed: [key.toWellFormed()], problem: 'key', index: loneSurrogateAt(key) };
    const found = walk(fields[key], depth + 1);
    if (found) {
      found.reversed.push(key);
      return found;
    }
  }
  return undefined;
}

/**
 * The first string in `value` (a value or an object key, at any depth) holding a lone surrogate, or the
 * first place nested deeper than MAX_INPUT_DEPTH (a recursive walk must stop somewhere); undefined when
 * there is none. Runs on every input: it allocates nothing unless it finds something.
 */
export function malformedText(value: unknown): MalformedText | undefined {
  const found = walk(value, 0);
  if (!found) return undefined;
  const path = found.reversed.reverse();
  return { path: found.problem === 'depth' ? path.slice(0, 1) : path, problem: found.problem, index: found.index };
}

/** The rule a MalformedText breaks, as the end of a 400's message (`title: must be ...`). */
export function describeMalformed(found: MalformedText): string {
  if (found.problem === 'depth') return `must be nested at most ${MAX_INPUT_DEPTH} levels deep`;
  const subject = found.problem === 'key' ? 'the key must' : 'must';
  return `${subject} be well-formed Unicode text (a lone surrogate at index ${found.index})`;
}

/**
 * encodeURIComponent that never throws: a lone surrogate (in text stored before input was checked) is
 * encoded as U+FFFD, as the URL parser and TextEncoder do. Every URL and header made from stored text uses it.
 */
export function uriComponent(text: string): string {
  return encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed());
}

/** The first `max` UTF-16 units of text, one fewer when the cut would split a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
