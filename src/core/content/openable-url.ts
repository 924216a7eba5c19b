/**
 * The URLs a reader may be sent to: absolute http, https and mailto URLs. Nothing that runs (`javascript:`,
 * `vbscript:`), embeds (`data:`) or reads locally (`file:`). Link pages may only point at such URLs, and
 * the published-site reader renders any other link of a body as plain text.
 */

const OPENABLE_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** Whether a text is an absolute URL of a scheme a reader may follow. */
export function isOpenableUrl(text: string): boolean {
  try {
    return OPENABLE_SCHEMES.has(new URL(text).protocol);
  } catch {
    return false;
  }
}
