/**
 * The reader's words for its layout's accessibility and phone parts (the skip link, the menu button, the
 * labels of regions that scroll, breadcrumbs, the last-updated date), in every locale a site's
 * customization can choose. Kept apart from words.ts so that each part of the reader adds its own words.
 */

/** The layout words of one locale. */
export interface LayoutWords {
  readonly skipToContent: string;
  /** The button that shows the page tree on a phone. */
  readonly menu: string;
  readonly breadcrumbs: string;
  /** The label of a code block that scrolls, for its language (empty: none named). */
  readonly code: (language: string) => string;
  /** The label of a table that scrolls. */
  readonly table: string;
  /** Before the date of a page's last change. */
  readonly lastUpdated: string;
}

const label = (word: string) => (language: string) => (language === '' ? word : `${word}: ${language}`);

const LAYOUT_WORDS: Readonly<Record<string, LayoutWords>> = {
  en: { skipToContent: 'Skip to content', menu: 'Menu', breadcrumbs: 'Breadcrumbs', code: label('Code'), table: 'Table', lastUpdated: 'Last updated' },
  fr: { skipToContent: 'Aller au contenu', menu: 'Menu', breadcrumbs: "Fil d'Ariane", code: label('Code'), table: 'Tableau', lastUpdated: 'Dernière mise à jour' },
  de: { skipToContent: 'Zum Inhalt springen', menu: 'Menü', breadcrumbs: 'Brotkrümelnavigation', code: label('Code'), table: 'Tabelle', lastUpdated: 'Zuletzt aktualisiert' },
  es: { skipToContent: 'Saltar al contenido', menu: 'Menú', breadcrumbs: 'Ruta de navegación', code: label('Código'), table: 'Tabla', lastUpdated: 'Última actualización' },
  ja: { skipToContent: 'コンテンツへスキップ', menu: 'メニュー', breadcrumbs: 'パンくずリスト', code: label('コード'), table: '表', lastUpdated: '最終更新' },
  zh: { skipToContent: '跳到内容', menu: '菜单', breadcrumbs: '面包屑导航', code: label('代码'), table: '表格', lastUpdated: '最后更新' },
  nl: { skipToContent: 'Naar de inhoud', menu: 'Menu', breadcrumbs: 'Kruimelpad', code: label('Code'), table: 'Tabel', lastUpdated: 'Laatst bijgewerkt' },
  no: { skipToContent: 'Hopp til innholdet', menu: 'Meny', breadcrumbs: 'Brødsmulesti', code: label('Kode'), table: 'Tabell', lastUpdated: 'Sist oppdatert' },
  'pt-br': { skipToContent: 'Pular para o conteúdo', menu: 'Menu', breadcrumbs: 'Trilha de navegação', code: label('Código'), table: 'Tabela', lastUpdated: 'Última atualização' },
  ru: { skipToContent: 'Перейти к содержимому', menu: 'Меню', breadcrumbs: 'Навигационная цепочка', code: label('Код'), table: 'Таблица', lastUpdated: 'Последнее обновление' },
};

/** The layout words of a locale; English for one the table does not have. */
export const layoutWordsOf = (locale: string): LayoutWords => (Object.prototype.hasOwnProperty.call(LAYOUT_WORDS, locale) ? LAYOUT_WORDS[locale] : LAYOUT_WORDS.en);

/** Each locale's long-date format, made once: making one loads the locale's data (~35 ms the first time). */
const longDateFormats = new Map<string, Intl.DateTimeFormat | null>();

/** A date (ISO 8601) as the locale writes it, in UTC so that every server renders the same page. */
export function longDate(iso: string, locale: string): string {
  let format = longDateFormats.get(locale);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
    } catch {
      // Not a locale Intl knows: dates print as ISO 8601.
      format = null;
    }
    longDateFormats.set(locale, format);
  }
  const date = new Date(iso);
  return format === null || Number.isNaN(date.getTime()) ? iso.slice(0, 10) : format.format(date);
}
