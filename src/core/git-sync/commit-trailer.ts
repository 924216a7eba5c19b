/**
 * The trailer that marks the platform's own commits (revision `git.createdByService`): an export ends its
 * message with `Docs-Platform-Revision: <space id>/<revision id>`, as Git trailers go (after a blank line,
 * `git interpret-trailers` reads it). An import whose head carries the trailer of the space's current
 * revision has nothing to bring in: it is the platform's own export coming back.
 */

/** The trailer's key. */
export const PLATFORM_TRAILER = 'Docs-Platform-Revision';

/** A commit message with the trailer of a space's revision at its end. */
export function withPlatformTrailer(message: string, spaceId: string, revisionId: string): string {
  return `${message.trimEnd()}\n\n${PLATFORM_TRAILER}: ${spaceId}/${revisionId}\n`;
}

/** The space and revision a commit message's trailer names, or undefined when it has none. */
export function platformTrailerOf(message: string): { readonly space: string; readonly revision: string } | undefined {
  const lines = message.trimEnd().split('\n');
  const match = new RegExp(`^${PLATFORM_TRAILER}: ([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)$`).exec(lines.at(-1) ?? '');
  return match === null ? undefined : { space: match[1], revision: match[2] };
}

/** Whether a commit is the platform's export of this space's revision. */
export function isPlatformCommitOf(message: string, spaceId: string, revisionId: string): boolean {
  const trailer = platformTrailerOf(message);
  return trailer?.space === spaceId && trailer.revision === revisionId;
}
