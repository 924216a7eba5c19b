import { outlineOf, type BodySection } from '../content/outline.js';
import { cutText } from '../well-formed.js';

/**
 * A page body cut into the sections search shows: a section is a top-level heading and the text up to
 * the next one; the text before the first heading is the page's own section (no heading, no anchor).
 * Anchors are made as the links report and the JSON document make them (one slugger over every heading
 * of the page, in document order), so a section's `#anchor` is the one a link to it resolves. The body is
 * read by content/outline.ts, which reads a whole revision ~20x faster than the mdast tree.
 */

/** The most characters of a section's text a search hit shows as its `body`. */
export const EXCERPT_LENGTH = 500;

/** Splits Markdown into sections. */
export function sectionsOf(markdown: string): readonly BodySection[] {
  return outlineOf(markdown).sections;
}

/**
 * What a hit shows of a section: its text without code blocks (BodySection.prose) and without GitBook's
 * block tags (`{% hint style="info" %}`: their content stays), on one line, at most `length` (EXCERPT_LENGTH)
 * characters, cut at a word boundary with `…` when it is longer. A page's summary is cut so too.
 */
export function excerptOf(text: string, length = EXCERPT_LENGTH): string {
  const flat = text.replace(/\{%[^%]{0,500}%\}/g, ' ').replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = cutText(flat, length - 1);
  const space = cut.lastIndexOf(' ');
  // A word longer than a fifth of the excerpt is cut inside; otherwise the cut falls between words.
  return `${(space > length * 0.8 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
