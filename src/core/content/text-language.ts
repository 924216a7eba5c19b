/**
 * The language a space's content is written in, and its direction. For a reader's page: the space's own `language` when it has
 * one, else the site's locale (the language of the reader's own words). The reader puts them on the page's
 * `<html lang dir>`, and mirrors the layout for a language written right to left. A PDF export takes the
 * space's language alone (pdf/render.ts).
 */

/** A page's language (a BCP 47 tag) and its direction. */
export interface TextLanguage {
  readonly lang: string;
  readonly dir: 'ltr' | 'rtl';
}

/** The codes, of those a space's language (TranslationLanguage) and a site's locale take, written right to left. */
const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(['ar', 'he']);

/** Whether a language (a space's language or a site's locale) is written right to left. */
export const isRightToLeft = (lang: string): boolean => RIGHT_TO_LEFT.has(lang);

/** The language and direction of pages of a space with `language` (absent: none set) on a site whose locale is `locale`. */
export function textLanguageOf(language: string | undefined, locale: string): TextLanguage {
  const lang = language ?? locale;
  return { lang, dir: isRightToLeft(lang) ? 'rtl' : 'ltr' };
}
