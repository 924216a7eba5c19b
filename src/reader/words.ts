import { html, type Html } from './html.js';

/**
 * The reader's own words, in every locale a site's customization can choose (`internationalization.locale`),
 * in one table. Words that hold a visitor's text (a search query) take it as Html, escaped by the caller's
 * template, so that each language puts it where its grammar wants.
 */

/** The words of one locale. */
export interface Words {
  readonly search: string;
  /** The search box's placeholder, for a site space's title. */
  readonly searchIn: (title: string) => string;
  readonly sections: string;
  readonly pages: string;
  readonly onThisPage: string;
  readonly pagination: string;
  readonly previous: string;
  readonly next: string;
  readonly notFoundTitle: string;
  readonly notFoundText: string;
  /** The link from a 404 to the site's first page. */
  readonly firstPage: string;
  readonly typeToSearch: string;
  readonly noResults: (query: Html) => Html;
  readonly results: (count: number, query: Html) => Html;
  readonly signInTitle: string;
  readonly signInText: string;
  readonly privacyPolicy: string;
}

const en: Words = {
  search: 'Search',
  searchIn: (title) => `Search ${title}`,
  sections: 'Sections',
  pages: 'Pages',
  onThisPage: 'On this page',
  pagination: 'Pagination',
  previous: 'Previous',
  next: 'Next',
  notFoundTitle: 'Page not found',
  notFoundText: 'This site has no page at this address. Pick one in the navigation, or search for it.',
  firstPage: 'Go to the first page',
  typeToSearch: 'Type some words to search.',
  noResults: (query) => html`No results for “${query}”.`,
  results: (count, query) => html`${count} result${count === 1 ? '' : 's'} for “${query}”`,
  signInTitle: 'Sign in to read',
  signInText: 'This site is open only to authenticated visitors. Open it through the link your organization gave you, which carries your visitor token.',
  privacyPolicy: 'Privacy policy',
};

const fr: Words = {
  search: 'Rechercher',
  searchIn: (title) => `Rechercher dans ${title}`,
  sections: 'Sections',
  pages: 'Pages',
  onThisPage: 'Sur cette page',
  pagination: 'Pagination',
  previous: 'Précédent',
  next: 'Suivant',
  notFoundTitle: 'Page introuvable',
  notFoundText: "Ce site n'a pas de page à cette adresse. Choisissez-en une dans la navigation, ou cherchez-la.",
  firstPage: 'Aller à la première page',
  typeToSearch: 'Saisissez quelques mots pour rechercher.',
  noResults: (query) => html`Aucun résultat pour « ${query} ».`,
  results: (count, query) => html`${count} résultat${count === 1 ? '' : 's'} pour « ${query} »`,
  signInTitle: 'Connectez-vous pour lire',
  signInText: "Ce site n'est ouvert qu'aux visiteurs authentifiés. Ouvrez-le par le lien que votre organisation vous a donné, qui porte votre jeton de visiteur.",
  privacyPolicy: 'Politique de confidentialité',
};

const de: Words = {
  search: 'Suchen',
  searchIn: (title) => `${title} durchsuchen`,
  sections: 'Bereiche',
  pages: 'Seiten',
  onThisPage: 'Auf dieser Seite',
  pagination: 'Seitennavigation',
  previous: 'Zurück',
  next: 'Weiter',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Diese Website hat unter dieser Adresse keine Seite. Wählen Sie eine in der Navigation aus oder suchen Sie danach.',
  firstPage: 'Zur ersten Seite',
  typeToSearch: 'Geben Sie Suchbegriffe ein.',
  noResults: (query) => html`Keine Ergebnisse für „${query}“.`,
  results: (count, query) => html`${count} ${count === 1 ? 'Ergebnis' : 'Ergebnisse'} für „${query}“`,
  signInTitle: 'Zum Lesen anmelden',
  signInText: 'Diese Website ist nur für angemeldete Besucher zugänglich. Öffnen Sie sie über den Link Ihrer Organisation, der Ihr Besucher-Token enthält.',
  privacyPolicy: 'Datenschutzerklärung',
};

const es: Words = {
  search: 'Buscar',
  searchIn: (title) => `Buscar en ${title}`,
  sections: 'Secciones',
  pages: 'Páginas',
  onThisPage: 'En esta página',
  pagination: 'Paginación',
  previous: 'Anterior',
  next: 'Siguiente',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Este sitio no tiene ninguna página en esta dirección. Elija una en la navegación o búsquela.',
  firstPage: 'Ir a la primera página',
  typeToSearch: 'Escriba algunas palabras para buscar.',
  noResults: (query) => html`No hay resultados para «${query}».`,
  results: (count, query) => html`${count} resultado${count === 1 ? '' : 's'} para «${query}»`,
  signInTitle: 'Inicie sesión para leer',
  signInText: 'Este sitio solo está abierto a visitantes autenticados. Ábralo desde el enlace que le dio su organización, que lleva su token de visitante.',
  privacyPolicy: 'Política de privacidad',
};

const ja: Words = {
  search: '検索',
  searchIn: (title) => `${title}を検索`,
  sections: 'セクション',
  pages: 'ページ',
  onThisPage: 'このページの内容',
  pagination: 'ページ送り',
  previous: '前へ',
  next: '次へ',
  notFoundTitle: 'ページが見つかりません',
  notFoundText: 'このアドレスにはページがありません。ナビゲーションから選ぶか、検索してください。',
  firstPage: '最初のページへ',
  typeToSearch: '検索する語句を入力してください。',
  noResults: (query) => html`「${query}」に一致する結果はありません。`,
  results: (count, query) => html`「${query}」の検索結果：${count}件`,
  signInTitle: 'サインインして閲覧',
  signInText: 'このサイトは認証された訪問者のみが閲覧できます。組織から共有された、訪問者トークン付きのリンクから開いてください。',
  privacyPolicy: 'プライバシーポリシー',
};

const zh: Words = {
  search: '搜索',
  searchIn: (title) => `搜索${title}`,
  sections: '栏目',
  pages: '页面',
  onThisPage: '本页内容',
  pagination: '翻页',
  previous: '上一页',
  next: '下一页',
  notFoundTitle: '找不到页面',
  notFoundText: '此网站在该地址没有页面。请在导航中选择一个页面，或进行搜索。',
  firstPage: '前往第一页',
  typeToSearch: '请输入要搜索的词语。',
  noResults: (query) => html`没有找到与“${query}”相关的结果。`,
  results: (count, query) => html`“${query}”的搜索结果：${count} 条`,
  signInTitle: '登录后阅读',
  signInText: '此网站仅向经过身份验证的访问者开放。请通过贵组织提供的、带有访问者令牌的链接打开它。',
  privacyPolicy: '隐私政策',
};

const nl: Words = {
  search: 'Zoeken',
  searchIn: (title) => `Zoeken in ${title}`,
  sections: 'Secties',
  pages: "Pagina's",
  onThisPage: 'Op deze pagina',
  pagination: 'Paginering',
  previous: 'Vorige',
  next: 'Volgende',
  notFoundTitle: 'Pagina niet gevonden',
  notFoundText: 'Deze site heeft geen pagina op dit adres. Kies er een in de navigatie, of zoek ernaar.',
  firstPage: 'Naar de eerste pagina',
  typeToSearch: 'Typ een paar woorden om te zoeken.',
  noResults: (query) => html`Geen resultaten voor ‘${query}’.`,
  results: (count, query) => html`${count} ${count === 1 ? 'resultaat' : 'resultaten'} voor ‘${query}’`,
  signInTitle: 'Meld je aan om te lezen',
  signInText: 'Deze site is alleen open voor geverifieerde bezoekers. Open hem via de link die je organisatie je gaf, met je bezoekerstoken.',
  privacyPolicy: 'Privacybeleid',
};

const no: Words = {
  search: 'Søk',
  searchIn: (title) => `Søk i ${title}`,
  sections: 'Seksjoner',
  pages: 'Sider',
  onThisPage: 'På denne siden',
  pagination: 'Sidenavigasjon',
  previous: 'Forrige',
  next: 'Neste',
  notFoundTitle: 'Fant ikke siden',
  notFoundText: 'Dette nettstedet har ingen side på denne adressen. Velg en i navigasjonen, eller søk etter den.',
  firstPage: 'Gå til første side',
  typeToSearch: 'Skriv noen ord for å søke.',
  noResults: (query) => html`Ingen treff for «${query}».`,
  results: (count, query) => html`${count} treff for «${query}»`,
  signInTitle: 'Logg inn for å lese',
  signInText: 'Dette nettstedet er bare åpent for autentiserte besøkende. Åpne det via lenken organisasjonen din ga deg, som har besøkstokenet ditt.',
  privacyPolicy: 'Personvernerklæring',
};

const ptBr: Words = {
  search: 'Pesquisar',
  searchIn: (title) => `Pesquisar em ${title}`,
  sections: 'Seções',
  pages: 'Páginas',
  onThisPage: 'Nesta página',
  pagination: 'Paginação',
  previous: 'Anterior',
  next: 'Próxima',
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Este site não tem uma página neste endereço. Escolha uma na navegação ou pesquise por ela.',
  firstPage: 'Ir para a primeira página',
  typeToSearch: 'Digite algumas palavras para pesquisar.',
  noResults: (query) => html`Nenhum resultado para “${query}”.`,
  results: (count, query) => html`${count} resultado${count === 1 ? '' : 's'} para “${query}”`,
  signInTitle: 'Entre para ler',
  signInText: 'Este site está aberto apenas a visitantes autenticados. Abra-o pelo link que sua organização forneceu, que contém seu token de visitante.',
  privacyPolicy: 'Política de privacidade',
};

/** Russian plural forms: one (1, 21, ...), few (2-4, 22-24, ...), many (the rest). */
const ruPlural = (count: number, one: string, few: string, many: string) => {
  const tens = count % 100;
  const units = count % 10;
  if (tens >= 11 && tens <= 14) return many;
  return units === 1 ? one : units >= 2 && units <= 4 ? few : many;
};

const ru: Words = {
  search: 'Поиск',
  searchIn: (title) => `Поиск: ${title}`,
  sections: 'Разделы',
  pages: 'Страницы',
  onThisPage: 'На этой странице',
  pagination: 'Навигация по страницам',
  previous: 'Назад',
  next: 'Далее',
  notFoundTitle: 'Страница не найдена',
  notFoundText: 'На этом сайте нет страницы по этому адресу. Выберите страницу в навигации или воспользуйтесь поиском.',
  firstPage: 'Перейти на первую страницу',
  typeToSearch: 'Введите слова для поиска.',
  noResults: (query) => html`По запросу «${query}» ничего не найдено.`,
  results: (count, query) => html`${count} ${ruPlural(count, 'результат', 'результата', 'результатов')} по запросу «${query}»`,
  signInTitle: 'Войдите, чтобы читать',
  signInText: 'Этот сайт открыт только для авторизованных посетителей. Откройте его по ссылке от вашей организации, содержащей ваш токен посетителя.',
  privacyPolicy: 'Политика конфиденциальности',
};

/** The words of each locale. */
const WORDS: Readonly<Record<string, Words>> = { en, fr, de, es, ja, zh, nl, no, 'pt-br': ptBr, ru };

/** The words of a locale; English for one the table does not have. */
export const wordsOf = (locale: string): Words => (Object.prototype.hasOwnProperty.call(WORDS, locale) ? WORDS[locale] : en);
