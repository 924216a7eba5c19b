/** The cookies that keep a reader's credentials once the query brought them: scoped to the site's path, unreadable by scripts. */

/** The cookie of a share key. */
export const SHARE_COOKIE = 'dp_share';
/** The cookie of a visitor token. */
export const VISITOR_COOKIE = 'dp_visitor';

/** The cookies of a request by name (the first of each name: the one with the longest path, as browsers send them). */
export function readCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const name = part.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(at + 1).trim());
  }
  return cookies;
}

/** A Set-Cookie value. Only credentials the core accepted are set, so their text is a key or a JWT (no `;`). */
export function setCookie(name: string, value: string, path: string, secure: boolean): string {
  return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
