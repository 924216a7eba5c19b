import { alertStyle, calloutLabel, type Block, type BodyItem } from '../core/reader.js';
import { escapeHtml } from './html.js';

/**
 * GitBook's blocks as HTML, around what they hold (rendered by markdown.ts): hints and alerts as labelled
 * notes, tabs as radio buttons and their panels (they work without script, and the arrow keys move between
 * them), expandables as <details>, embeds, files and page references as link cards. A URL is shown as a link
 * only where the core resolved it (`href`); otherwise what the block holds is shown alone. Everything from
 * the body is escaped.
 */

/** What rendering a block needs from the page: where URLs lead, the titles of the pages they name, a fresh id. */
export interface BlockContext {
  readonly href: (url: string) => string | null;
  readonly pageTitle: (url: string) => string | undefined;
  readonly nextId: () => number;
  /** Renders what a block holds; `code` sets the options of the code blocks inside. */
  readonly inner: (items: readonly BodyItem[], code?: CodeOptions) => string;
}

/** The options of `{% code %}` for the fences it holds. */
export interface CodeOptions {
  readonly title?: string;
  readonly lineNumbers: boolean;
  readonly wrap: boolean;
}

/** The last segment of a URL's path, for a card's name. */
function nameOf(url: string): string {
  const path = url.split(/[?#]/)[0].replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || url;
  } catch {
    return last || url;
  }
}

/** The host of a URL, or the URL. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** A link card: a title, a line under it, and what the block holds as a caption. */
function card(kind: string, href: string, title: string, detail: string, caption: string, external: boolean): string {
  return `<div class="card card-${kind}"><a href="${escapeHtml(href)}"${external ? ' rel="noopener noreferrer"' : ''}${kind === 'file' ? ' download' : ''}><span class="card-title">${escapeHtml(title)}</span><span class="card-detail">${escapeHtml(detail)}</span></a>${caption && `<div class="card-caption">${caption}</div>`}</div>\n`;
}

/** A block as HTML. */
export function renderBlock(block: Block, context: BlockContext): string {
  const inner = () => context.inner(block.children);
  switch (block.kind) {
    case 'hint':
    case 'alert': {
      const style = block.kind === 'hint' ? block.style : alertStyle(block.alert);
      const label = calloutLabel(block);
      return `<div class="hint hint-${style}" role="note" aria-label="${escapeHtml(label)}"><p class="hint-label" aria-hidden="true">${escapeHtml(label)}</p>${inner()}</div>\n`;
    }
    case 'tabs': {
      const group = `tabs-${context.nextId()}`;
      const tabs = block.children.map((tab, at) => {
        const id = `${group}-${at}`;
        return `<input type="radio" class="tab-input" name="${group}" id="${id}"${at === 0 ? ' checked' : ''}><label class="tab-label" id="${id}-label" for="${id}">${escapeHtml(tab.title)}</label><div class="tab-panel" role="group" aria-labelledby="${id}-label">${context.inner(tab.children)}</div>`;
      });
      return `<div class="tabs">${tabs.join('')}</div>\n`;
    }
    case 'tab':
      return inner();
    case 'code':
      return context.inner(block.children, { ...(block.title !== undefined && { title: block.title }), lineNumbers: block.lineNumbers, wrap: block.wrap });
    case 'details':
      return `<details class="expandable"${block.open ? ' open' : ''}><summary>${escapeHtml(block.summary)}</summary><div>${inner()}</div></details>\n`;
    case 'embed': {
      const href = context.href(block.url);
      return href === null ? `<p>${escapeHtml(block.url)}</p>\n${inner()}` : card('embed', href, hostOf(block.url), block.url, inner(), true);
    }
    case 'file': {
      const href = context.href(block.url);
      return href === null ? inner() : card('file', href, nameOf(href), 'Download', inner(), /^https?:/i.test(block.url));
    }
    case 'content-ref': {
      const href = context.href(block.url);
      const title = context.pageTitle(block.url);
      if (href === null || title === undefined) return inner();
      return card('page', href, title, '', '', false);
    }
  }
}
