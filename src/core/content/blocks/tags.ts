import type { Attributes } from './model.js';

/**
 * The grammar of the hosted platform's tags: `{% name attribute="value" ... %}` and `{% endname %}`. A tag
 * line starts (after up to 3 spaces, as any Markdown block may) with a tag, and may hold more tags and text
 * after it (`{% file src="a.pdf" %}Caption{% endfile %}`). Reading is one pass over the line; attribute
 * values are double-quoted, `&quot;` standing for a quote inside one.
 */

/** The tags that open a block. */
export const TAG_NAMES = ['hint', 'tabs', 'tab', 'code', 'embed', 'content-ref', 'file'] as const;
export type TagName = (typeof TAG_NAMES)[number];

/** A piece of a tag line: an opening tag, a closing tag, or text between them. */
export type TagPiece =
  | { readonly kind: 'open'; readonly name: TagName; readonly attributes: Attributes; readonly raw: string }
  | { readonly kind: 'close'; readonly name: TagName; readonly raw: string }
  | { readonly kind: 'text'; readonly text: string };

const NAMES: ReadonlySet<string> = new Set(TAG_NAMES);
const NAME = /[a-z][a-z-]*/y;
const ATTRIBUTE = /\s+([A-Za-z][\w-]*)="([^"]*)"/y;
/** Reads the inside of one `{% ... %}`, or undefined when it is no tag of the platform's. */
function readTag(inside: string, raw: string): TagPiece | undefined {
  const text = inside.trim();
  NAME.lastIndex = 0;
  const name = NAME.exec(text)?.[0];
  if (name === undefined) return undefined;
  let at = NAME.lastIndex;
  if (name.startsWith('end') && NAMES.has(name.slice(3))) return at === text.length ? { kind: 'close', name: name.slice(3) as TagName, raw } : undefined;
  if (!NAMES.has(name)) return undefined;
  const attributes: (readonly [string, string])[] = [];
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const match = ATTRIBUTE.exec(text);
    if (!match) break;
    attributes.push([match[1], match[2].replaceAll('&quot;', '"')]);
    at = ATTRIBUTE.lastIndex;
  }
  return at === text.length ? { kind: 'open', name: name as TagName, attributes, raw } : undefined;
}

/** The pieces of a tag line, or undefined when the line is not one (text, or a tag the platform does not have). */
export function readTagLine(line: string): TagPiece[] | undefined {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 0x20) at++;
  if (!line.startsWith('{%', at)) return undefined;
  const pieces: TagPiece[] = [];
  while (at < line.length) {
    if (line.startsWith('{%', at)) {
      const end = line.indexOf('%}', at + 2);
      if (end < 0) return undefined;
      const tag = readTag(line.slice(at + 2, end), line.slice(at, end + 2));
      if (!tag) return undefined;
      pieces.push(tag);
      at = end + 2;
    } else {
      const next = line.indexOf('{%', at);
      const end = next < 0 ? line.length : next;
      const text = line.slice(at, end).trim();
      if (text !== '') pieces.push({ kind: 'text', text });
      at = end;
    }
  }
  return pieces;
}

/** The value of an attribute (the first of that name), or undefined. */
export function attribute(attributes: Attributes, name: string): string | undefined {
  return attributes.find(([key]) => key === name)?.[1];
}

/** A tag as printed: `{% name a="v" %}`, quotes and line breaks in values made safe. */
export function printTag(name: string, attributes: Attributes = []): string {
  const written = attributes.map(([key, value]) => ` ${key}="${value.replace(/[\r\n]+/g, ' ').replaceAll('"', '&quot;')}"`).join('');
  return `{% ${name}${written} %}`;
}
