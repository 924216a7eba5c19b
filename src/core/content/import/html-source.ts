import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { Root } from 'mdast';
import { badRequest } from '../../errors.js';
import type { FetchedBytes } from '../../fetch-bytes.js';
import { isHtmlType, isUntypedText, sourceText } from './fetch-source.js';
import { nameInUrl } from './markdown-source.js';
import { absoluteAgainst, importedBody, titleOfName } from './page-body.js';
import type { UnsettledPlan } from './local-ids.js';

/**
 * HTML to a page: parsed with hast-util-from-html (the HTML standard's parser, as browsers parse), turned
 * into mdast with hast-util-to-mdast, then printed by the project's Markdown printer like any page body.
 * `html` takes the whole `<body>`; `website` takes a web page's main content: `<main>`, else the element
 * with `role="main"`, else the first `<article>`, else the body without its `<header>` and `<footer>`; in
 * both, navigation (`<nav>`, `<aside>`) and interactive parts (`<form>`, `<button>`) are left out.
 */

// The hast types, taken from the parser's own signature (@types/hast comes with it, not as our dependency).
type HastRoot = ReturnType<typeof fromHtml>;
type Node = HastRoot | HastRoot['children'][number];
type Element = Extract<Node, { type: 'element' }>;
type ElementContent = Element['children'][number];

/** The first element in a tree (depth first, the node itself included) that passes `test`. */
function findElement(node: Node, test: (element: Element) => boolean): Element | undefined {
  if (node.type === 'element' && test(node)) return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children) {
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}

const tag = (name: string) => (element: Element) => element.tagName === name;

/** The text of a tree. */
function textOf(node: Node): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

/** A copy of an element without the descendants `drop` names (by tag name). */
function without(element: Element, drop: ReadonlySet<string>): Element {
  const children: ElementContent[] = [];
  for (const child of element.children) {
    if (child.type !== 'element') children.push(child);
    else if (!drop.has(child.tagName)) children.push(without(child, drop));
  }
  return { ...element, children };
}

/** Parts of a page that are not its content, in either mode. */
const NEVER_CONTENT = new Set(['nav', 'aside', 'form', 'button', 'script', 'style', 'noscript', 'template', 'base']);
/** Parts of a whole web page's body that are not its content (kept inside `<main>` or `<article>`, where they belong to it). */
const PAGE_CHROME = new Set([...NEVER_CONTENT, 'header', 'footer']);

/** The element whose content a mode imports. */
function contentOf(tree: HastRoot, mode: 'html' | 'website'): Element {
  const body = findElement(tree, tag('body')) ?? { type: 'element', tagName: 'body', properties: {}, children: [] };
  if (mode === 'html') return without(body, NEVER_CONTENT);
  const main = findElement(body, tag('main')) ?? findElement(body, (element) => element.properties.role === 'main') ?? findElement(body, tag('article'));
  return main ? without(main, NEVER_CONTENT) : without(body, PAGE_CHROME);
}

/** The URL relative links of a page resolve against: its first `<base href>` (itself resolved), else its own. */
function baseOf(tree: HastRoot, url: string): string {
  const href = findElement(tree, tag('base'))?.properties.href;
  if (typeof href !== 'string') return url;
  try {
    return new URL(href, url).href;
  } catch {
    return url;
  }
}

/**
 * The deepest elements may nest in an imported page. Real pages nest tens of levels; the conversion to
 * Markdown recurses once per level (thousands overflow the stack), and what it prints is held to the
 * Markdown depth limit after (page-body.ts).
 */
export const MAX_HTML_DEPTH = 256;

/** The 400 of a page that nests beyond MAX_HTML_DEPTH. */
const tooDeep = (url: string) => badRequest(`url: ${url} nests elements more than ${MAX_HTML_DEPTH} levels deep, the most an imported page may`);

/** Refuses (400) a tree whose elements nest deeper than MAX_HTML_DEPTH, without recursion. */
function assertHtmlDepth(tree: HastRoot, url: string): void {
  const pending: [Node, number][] = [[tree, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (!('children' in node)) continue;
    if (depth > MAX_HTML_DEPTH) throw tooDeep(url);
    for (const child of node.children) pending.push([child, depth + 1]);
  }
}

/**
 * Plans the import of one HTML page as one page. The answer must be served as HTML, or untyped and open
 * like HTML (400 otherwise). Its title is a leading `<h1>` of the content, else the document's `<title>`,
 * else the URL's file name; relative links and images are made absolute against the page's URL.
 */
export function planHtml(newId: () => string, url: string, fetched: FetchedBytes, mode: 'html' | 'website'): UnsettledPlan {
  const type = fetched.contentType;
  const what = mode === 'website' ? 'a web page' : 'HTML';
  if (!isHtmlType(type) && !isUntypedText(type)) throw badRequest(`url: ${url} is not ${what}: it answered ${type}`);
  const text = sourceText(url, fetched, what);
  if (!isHtmlType(type) && !/^\s*</.test(text)) throw badRequest(`url: ${url} is not ${what}: it does not start with an HTML tag`);
  let tree: HastRoot;
  try {
    tree = fromHtml(text);
  } catch (error) {
    // Its conversion of parse5's tree recurses once per element: thousands of nested ones overflow the stack.
    if (error instanceof RangeError) throw tooDeep(url);
    throw error;
  }
  assertHtmlDepth(tree, url);
  const title = findElement(tree, tag('title'));
  const root = toMdast({ type: 'root', children: [contentOf(tree, mode)] }) as Root;
  const fallbacks = [title && textOf(title), titleOfName(nameInUrl(url) ?? '')];
  const body = importedBody(root, `url: ${url}`, fallbacks, absoluteAgainst(baseOf(tree, url)));
  return { pages: [{ id: newId(), type: 'document', ...body, pages: [] }], files: [], skipped: 0 };
}
