import type { Urls } from '../../context.js';
import type { LinksIndex } from './links-index.js';
import type { LinkRef } from './scan.js';

/** What a status is read from: the facts of the pages and the files a revision has (at least those a list names). */
export type LinkLookup = Pick<LinksIndex, 'pages' | 'files'>;

/** The status of a link target, as the specification names them. */
export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
/** One link status. */
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Whether a URL points into the platform's own app (`ctx.urls.app(...)`): same origin, under its path. */
export type InAppTest = (url: string) => boolean;

/**
 * The in-app test for the app URLs of a request. It is made per request, not stored in the index,
 * because the app's address is the request's origin unless the platform has a fixed `baseUrl`.
 */
export function inAppTest(urls: Urls): InAppTest {
  const app = new URL(urls.app('/'));
  const path = app.pathname.replace(/\/+$/, '');
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    return parsed.origin === app.origin && (parsed.pathname === path || parsed.pathname.startsWith(`${path}/`));
  };
}

/** An anchor as written and percent-decoded (`%C3%BCber` → `über`), for matching heading anchors. */
function anchorForms(anchor: string): string[] {
  try {
    return [anchor, decodeURIComponent(anchor)];
  } catch {
    return [anchor];
  }
}

/**
 * The status of a target in a revision: a page or a file that does not exist, an anchor that is not a
 * heading anchor of its page, or a local URL that named nothing is `broken`; a URL into the app is
 * `in-app`; everything else (external URLs, never fetched) is `ok`.
 */
export function statusOf(index: LinkLookup, ref: LinkRef, inApp: InAppTest): LinkStatus {
  switch (ref.kind) {
    case 'page': {
      const page = index.pages.get(ref.page);
      if (!page) return 'broken';
      if (ref.anchor === undefined) return 'ok';
      return anchorForms(ref.anchor).some((anchor) => page.anchors.has(anchor)) ? 'ok' : 'broken';
    }
    case 'file':
      return index.files.has(ref.file) ? 'ok' : 'broken';
    default:
      if (ref.local) return 'broken';
      return inApp(ref.url) ? 'in-app' : 'ok';
  }
}
