import * as v from 'valibot';
import { listSchema } from '../pagination.js';
import { Timestamp, Url } from '../schemas.js';

/** The languages content can be translated into: the codes of the public API's TranslationLanguage. */
export const TRANSLATION_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv',
  'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

/** The title of translation settings: 1 to 100 characters. */
export const TranslationTitle = v.pipe(v.string(), v.minLength(1, 'must be 1 to 100 characters'), v.maxLength(100, 'must be 1 to 100 characters'));

/** The languages of translation settings: language codes, each at most once. */
export const TranslationLanguages = v.pipe(
  v.array(v.picklist(TRANSLATION_LANGUAGES)),
  v.check((languages) => new Set(languages).size === languages.length, 'must not name a language twice'),
);

/** The translation settings object of responses. */
export const TranslationSchema = v.object({
  object: v.literal('translation-settings'),
  id: v.string(),
  title: v.string(),
  languages: v.array(v.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  permissions: v.object({ view: v.boolean(), edit: v.boolean() }),
  urls: v.object({ location: Url }),
});

/** A list of translation settings. */
export const TranslationList = listSchema(TranslationSchema);
