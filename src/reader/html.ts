/**
 * HTML by tagged templates: html`<p>${text}</p>` escapes every interpolated value unless it is already Html
 * (made by html`` itself, or by raw() for markup this module's callers produced, such as markdown-it's
 * output). A few lines with no dependency, rather than a JSX-to-string library and its build step: the
 * reader has a handful of templates, and escaping by default is the one property that matters.
 */

/** Markup that is safe to insert as it is. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an element's content or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]);

/** What a template may interpolate: text (escaped), markup, nothing (false, null, undefined), or a list of these. */
export type Fragment = Html | string | number | false | null | undefined | readonly Fragment[];

function render(value: Fragment): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The tag of the templates. */
export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup that was made safe elsewhere (the Markdown renderer escapes what it emits). */
export const raw = (markup: string): Html => new Html(markup);
