/**
 * Who may show the platform's HTML in a frame: reader pages, their fragments and error pages, and the API
 * reference at /docs. Only pages of the same origin, so that no other site can frame a page under its own
 * to trick a click (clickjacking). Every HTML answer's Content-Security-Policy carries it, built here.
 */

/** The directive every HTML answer's Content-Security-Policy ends with. */
export const FRAME_ANCESTORS = "frame-ancestors 'self'";

/**
 * The Content-Security-Policy of an HTML fragment (the instant search's results): it runs nothing and loads
 * nothing itself (the page that fetches it inserts it), and is framed as the pages are.
 */
export const FRAGMENT_CSP = `default-src 'none'; base-uri 'none'; ${FRAME_ANCESTORS}`;
