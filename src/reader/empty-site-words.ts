import type { EmptyReason } from '../core/reader.js';

/**
 * What the reader says of a site (or site space) with nothing to read, and why (core/sites/reader/view.ts
 * EmptyReason), in every locale of the reader's own words (words.ts): a title and a sentence for each reason.
 */

/** The title and the sentence of one reason. */
interface Said {
  readonly title: string;
  readonly text: string;
}

/** The words of one locale, by reason. */
type EmptyWords = Readonly<Record<EmptyReason, Said>>;

const en: EmptyWords = {
  'no-spaces': { title: 'Nothing published yet', text: 'This site shows no space yet. Once a space is added to it, its pages appear here.' },
  'private-spaces': { title: 'This site’s content is private', text: 'Every space this site shows is private, so it has no page to read. A space appears here once its visibility is not private.' },
  'hidden-spaces': { title: 'Nothing to read here for you', text: 'None of this site’s sections is shown to you. Open the site through the link you were given, which carries what you may read.' },
  'no-pages': { title: 'No pages yet', text: 'This space has no page to read yet.' },
};

const fr: EmptyWords = {
  'no-spaces': { title: 'Rien de publié pour l’instant', text: 'Ce site ne montre encore aucun espace. Ses pages apparaîtront ici dès qu’un espace y sera ajouté.' },
  'private-spaces': { title: 'Le contenu de ce site est privé', text: 'Tous les espaces de ce site sont privés : il n’a aucune page à lire. Un espace apparaît ici dès que sa visibilité n’est plus privée.' },
  'hidden-spaces': { title: 'Rien à lire ici pour vous', text: 'Aucune section de ce site ne vous est montrée. Ouvrez le site par le lien que l’on vous a donné, qui porte ce que vous pouvez lire.' },
  'no-pages': { title: 'Pas encore de pages', text: 'Cet espace n’a encore aucune page à lire.' },
};

const de: EmptyWords = {
  'no-spaces': { title: 'Noch nichts veröffentlicht', text: 'Diese Site zeigt noch keinen Space. Sobald ein Space hinzugefügt wird, erscheinen seine Seiten hier.' },
  'private-spaces': { title: 'Der Inhalt dieser Site ist privat', text: 'Alle Spaces dieser Site sind privat, daher gibt es keine Seite zu lesen. Ein Space erscheint hier, sobald er nicht mehr privat ist.' },
  'hidden-spaces': { title: 'Hier gibt es nichts für Sie', text: 'Keiner der Bereiche dieser Site wird Ihnen angezeigt. Öffnen Sie die Site über den Link, den Sie erhalten haben.' },
  'no-pages': { title: 'Noch keine Seiten', text: 'Dieser Space hat noch keine Seite zum Lesen.' },
};

const es: EmptyWords = {
  'no-spaces': { title: 'Todavía no hay nada publicado', text: 'Este sitio aún no muestra ningún espacio. Sus páginas aparecerán aquí cuando se le añada uno.' },
  'private-spaces': { title: 'El contenido de este sitio es privado', text: 'Todos los espacios de este sitio son privados, así que no tiene páginas que leer. Un espacio aparece aquí cuando deja de ser privado.' },
  'hidden-spaces': { title: 'Aquí no hay nada para usted', text: 'No se le muestra ninguna sección de este sitio. Ábralo con el enlace que le dieron.' },
  'no-pages': { title: 'Todavía no hay páginas', text: 'Este espacio aún no tiene páginas que leer.' },
};

const ja: EmptyWords = {
  'no-spaces': { title: 'まだ何も公開されていません', text: 'このサイトにはまだスペースがありません。スペースが追加されると、そのページがここに表示されます。' },
  'private-spaces': { title: 'このサイトのコンテンツは非公開です', text: 'このサイトのスペースはすべて非公開のため、読めるページがありません。公開範囲が非公開でなくなると表示されます。' },
  'hidden-spaces': { title: 'ここに表示できる内容はありません', text: 'このサイトのセクションはあなたには表示されません。受け取ったリンクからサイトを開いてください。' },
  'no-pages': { title: 'まだページがありません', text: 'このスペースにはまだ読めるページがありません。' },
};

const zh: EmptyWords = {
  'no-spaces': { title: '尚未发布任何内容', text: '此站点还没有任何空间。添加空间后，其页面将显示在这里。' },
  'private-spaces': { title: '此站点的内容是私有的', text: '此站点的所有空间都是私有的，因此没有可阅读的页面。空间不再私有后会显示在这里。' },
  'hidden-spaces': { title: '这里没有您可阅读的内容', text: '此站点的任何部分都不向您显示。请通过您收到的链接打开站点。' },
  'no-pages': { title: '还没有页面', text: '此空间还没有可阅读的页面。' },
};

const nl: EmptyWords = {
  'no-spaces': { title: 'Nog niets gepubliceerd', text: 'Deze site toont nog geen space. Zodra er een wordt toegevoegd, verschijnen de pagina’s hier.' },
  'private-spaces': { title: 'De inhoud van deze site is privé', text: 'Alle spaces van deze site zijn privé, dus er is geen pagina om te lezen. Een space verschijnt hier zodra hij niet meer privé is.' },
  'hidden-spaces': { title: 'Hier is niets voor u', text: 'Geen enkel onderdeel van deze site wordt aan u getoond. Open de site via de link die u hebt gekregen.' },
  'no-pages': { title: 'Nog geen pagina’s', text: 'Deze space heeft nog geen pagina om te lezen.' },
};

const no: EmptyWords = {
  'no-spaces': { title: 'Ingenting publisert ennå', text: 'Dette nettstedet viser ingen områder ennå. Når et område legges til, vises sidene her.' },
  'private-spaces': { title: 'Innholdet på dette nettstedet er privat', text: 'Alle områdene på dette nettstedet er private, så det er ingen sider å lese. Et område vises her når det ikke lenger er privat.' },
  'hidden-spaces': { title: 'Ingenting å lese her for deg', text: 'Ingen av delene av dette nettstedet vises for deg. Åpne nettstedet via lenken du fikk.' },
  'no-pages': { title: 'Ingen sider ennå', text: 'Dette området har ingen sider å lese ennå.' },
};

const ptBr: EmptyWords = {
  'no-spaces': { title: 'Nada publicado ainda', text: 'Este site ainda não mostra nenhum espaço. Quando um espaço for adicionado, suas páginas aparecerão aqui.' },
  'private-spaces': { title: 'O conteúdo deste site é privado', text: 'Todos os espaços deste site são privados, então não há páginas para ler. Um espaço aparece aqui quando deixa de ser privado.' },
  'hidden-spaces': { title: 'Nada para você ler aqui', text: 'Nenhuma seção deste site é mostrada para você. Abra o site pelo link que você recebeu.' },
  'no-pages': { title: 'Ainda não há páginas', text: 'Este espaço ainda não tem páginas para ler.' },
};

const ru: EmptyWords = {
  'no-spaces': { title: 'Пока ничего не опубликовано', text: 'На этом сайте ещё нет ни одного пространства. Когда оно будет добавлено, его страницы появятся здесь.' },
  'private-spaces': { title: 'Содержимое этого сайта закрыто', text: 'Все пространства этого сайта закрытые, поэтому читать нечего. Пространство появится здесь, когда перестанет быть закрытым.' },
  'hidden-spaces': { title: 'Здесь нет ничего для вас', text: 'Ни один раздел этого сайта вам не показан. Откройте сайт по полученной ссылке.' },
  'no-pages': { title: 'Страниц пока нет', text: 'В этом пространстве пока нет страниц для чтения.' },
};

const WORDS: Readonly<Record<string, EmptyWords>> = { en, fr, de, es, ja, zh, nl, no, 'pt-br': ptBr, ru };

/** What the reader says of an empty site for a reason, in a locale (English for any other). */
export const emptySaid = (locale: string, reason: EmptyReason): Said => (Object.prototype.hasOwnProperty.call(WORDS, locale) ? WORDS[locale] : en)[reason];
