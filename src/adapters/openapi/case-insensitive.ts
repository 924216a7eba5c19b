/**
 * Rewrites a regular expression written with the `i` flag into one without flags that matches the same
 * strings, because JSON Schema's `pattern` has no flags: ASCII letters become both cases (`a` → `[aA]`,
 * `[a-f]` → `[a-fA-F]`, `\x41` → `[\x41a]`). Other escapes (`\d`, `\p{L}`, `\k<name>`) and group names
 * are copied as they are. Letters outside ASCII keep their case: JSON Schema cannot fold them either way.
 */

const isLower = (c: string) => c >= 'a' && c <= 'z';
const isUpper = (c: string) => c >= 'A' && c <= 'Z';
const swap = (c: string) => (isLower(c) ? c.toUpperCase() : isUpper(c) ? c.toLowerCase() : c);

/** One unit of a pattern: its source text and, when it stands for one character, that character. */
interface Token {
  readonly raw: string;
  readonly char?: string;
}

/** Reads the escape sequence starting at `at` (a backslash). */
function escapeAt(source: string, at: number): Token {
  const next = source[at + 1];
  const until = (close: string) => source.slice(at, source.indexOf(close, at) + 1);
  let raw: string;
  if (next === 'x') raw = source.slice(at, at + 4);
  else if (next === 'c') raw = source.slice(at, at + 3);
  else if (next === 'u') raw = source[at + 2] === '{' ? until('}') : source.slice(at, at + 6);
  else if (next === 'p' || next === 'P') raw = until('}');
  else if (next === 'k') raw = until('>');
  else raw = source.slice(at, at + 2);
  // A character given by its code (`\x41`, `\u0041`, `\u{41}`) folds like the character itself.
  const code = /^\\(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\})$/.exec(raw);
  return code ? { raw, char: String.fromCodePoint(parseInt(code[1] ?? code[2] ?? code[3], 16)) } : { raw };
}

/** The tokens of the inside of a character class. */
function classTokens(inside: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < inside.length; ) {
    const token = inside[i] === '\\' ? escapeAt(inside, i) : { raw: inside[i], char: inside[i] };
    tokens.push(token);
    i += token.raw.length;
  }
  return tokens;
}

/** The inside of a character class (without its brackets) with the other case of each ASCII letter added. */
function foldClass(inside: string): string {
  const tokens = classTokens(inside);
  let added = '';
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i].char;
    const last = tokens[i + 2]?.char;
    if (first !== undefined && tokens[i + 1]?.raw === '-' && last !== undefined) {
      // A range of letters of one case gains the same range in the other case.
      if ((isLower(first) && isLower(last)) || (isUpper(first) && isUpper(last))) added += `${swap(first)}-${swap(last)}`;
      i += 2;
    } else if (first !== undefined && swap(first) !== first) added += swap(first);
  }
  return inside + added;
}

/** The index of the `]` closing the class that opens at `at`; a `]` right after `[` or `[^` is a literal. */
function classEnd(source: string, at: number): number {
  let end = at + 1;
  if (source[end] === '^') end++;
  if (source[end] === ']') end++;
  while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? escapeAt(source, end).raw.length : 1;
  return end;
}

/** A pattern without flags matching what `new RegExp(source, 'i')` matches (for ASCII letters). */
export function caseInsensitivePattern(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; ) {
    const c = source[i];
    if (c === '\\') {
      const token = escapeAt(source, i);
      out += token.char !== undefined && swap(token.char) !== token.char ? `[${token.raw}${swap(token.char)}]` : token.raw;
      i += token.raw.length;
    } else if (c === '[') {
      const end = classEnd(source, i);
      const negated = source[i + 1] === '^';
      out += `[${negated ? '^' : ''}${foldClass(source.slice(i + (negated ? 2 : 1), end))}]`;
      i = end + 1;
    } else if (c === '(' && source.startsWith('?<', i + 1) && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // A named group's name is not matched text.
      const close = source.indexOf('>', i);
      out += source.slice(i, close + 1);
      i = close + 1;
    } else {
      out += swap(c) !== c ? `[${c}${swap(c)}]` : c;
      i++;
    }
  }
  return out;
}
