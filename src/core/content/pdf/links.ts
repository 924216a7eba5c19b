import { refOfUrl } from '../document.js';
import { uriComponent } from '../../well-formed.js';
import type { PrintSource } from './print-source.js';

/**
 * Where the links of an export go: a link to a page or a heading the PDF prints jumps there inside the
 * PDF; a link to a page it does not print opens the page in the app; web and mail links open as they
 * are. Anything else (a file, a relative path, `javascript:`) is printed as text, not as a link.
 */

/** Where a link goes: a named destination of the PDF, or a URL. */
export type LinkTarget = { readonly goTo: string; readonly url?: undefined } | { readonly url: string; readonly goTo?: undefined };

/** Resolves the links of one export. */
export interface Links {
  /** The named destination of a page (no anchor) or of one of its headings. */
  destination(pageId: string, anchor?: string): string;
  /** Where a Markdown URL of a page's body goes; undefined when it is not a link the PDF can follow. */
  target(url: string, pageId: string): LinkTarget | undefined;
  /** The id of the file a Markdown URL names, if it names one. */
  file(url: string): string | undefined;
}

/** The name of the PDF destination of a page (no anchor) or of one of its headings. */
export const destinationName = (pageId: string, anchor?: string): string => (anchor === undefined ? `page:${pageId}` : `page:${pageId}#${anchor}`);

/** URLs a PDF viewer may open. */
const OPENABLE = /^(https?:|mailto:)/i;

/**
 * The links of an export, given the destinations it will have (pages printed, and their headings' anchors):
 * a jump to a destination that does not exist would do nothing.
 */
export function linksOf(source: Pick<PrintSource, 'pageUrls'>, destinations: ReadonlySet<string>): Links {
  const destination = destinationName;
  const toPage = (pageId: string, anchor?: string): LinkTarget | undefined => {
    if (anchor !== undefined && destinations.has(destination(pageId, anchor))) return { goTo: destination(pageId, anchor) };
    if (destinations.has(destination(pageId))) return { goTo: destination(pageId) };
    const url = source.pageUrls.get(pageId);
    return url === undefined ? undefined : { url: anchor === undefined ? url : `${url}#${uriComponent(anchor)}` };
  };
  return {
    destination,
    target(url, pageId) {
      const ref = refOfUrl(url);
      switch (ref.kind) {
        case 'page':
          return toPage(ref.page);
        case 'anchor':
          return toPage(ref.page ?? pageId, ref.anchor);
        case 'url':
          return OPENABLE.test(ref.url) ? { url: ref.url } : undefined;
        default:
          return undefined;
      }
    },
    file(url) {
      const ref = refOfUrl(url);
      return ref.kind === 'file' ? ref.file : undefined;
    },
  };
}
