import type { manualClock } from '../../../src/core/clock.js';
import type { DerivedCache } from '../../../src/core/derived.js';
import type { Api, Platform } from '../../../src/core/platform.js';

/**
 * The model of a space's links, in plain data: per page its parent, its headings (words) and where its
 * links point (written by the commands as concrete ids and URLs), and the files that exist. Its rules are
 * docs/api-notes.md's "Links" notes, written out here rather than taken from the code:
 * - a link to a page is fine when the page exists, and its anchor (if any) is one of that page's heading
 *   anchors: a heading `## Word` is `word`, its second occurrence `word-1`, and so on;
 * - a link to a file is fine when the file exists; `./missing.md` is broken; a URL into the app is
 *   `in-app`; any other URL is fine;
 * - a link page links to its target; deleting a page deletes its subpages;
 * - a change request's `stats.broken.changeRequest` counts the page's broken targets that were not broken
 *   targets of the same page in the request's base.
 */

/** Heading words: repeats make numbered anchors. */
export const WORDS = ['alpha', 'beta', 'gamma'] as const;
/** Anchors links use: some exist on some pages, `nope` never does. */
export const ANCHORS = ['alpha', 'alpha-1', 'beta', 'gamma', 'nope'] as const;
/** The app's address for library calls (no request origin): the default base URL. */
export const APP = 'http://127.0.0.1:8080/app';
/** URLs links use, one of each status. */
export const URLS = ['https://example.com/a', 'mailto:team@example.com', './missing.md', `${APP}/s/elsewhere`] as const;
/** The URLs a link page may point to: http, https and mailto ones (Markdown links may be relative). */
export const LINK_PAGE_URLS = URLS.filter((url) => /^(https?|mailto):/.test(url));

/** Where a link points, concretely. */
export type Target = { kind: 'page'; page: string; anchor?: string } | { kind: 'file'; file: string } | { kind: 'url'; url: string };

export interface ModelPage {
  id: string;
  parent: string | null;
  type: 'document' | 'link';
  headings: string[];
  /** Where its links point (a link page: its target). */
  links: Target[];
}

/** One revision's content: its pages by id, and its files. */
export interface State {
  pages: Map<string, ModelPage>;
  files: string[];
}

export interface Model {
  /** The change request's content. */
  request: State;
  /** The request's base (the space's content when the request was opened). */
  base: State;
  /** The space's content (what was last merged). */
  space: State;
  /** Ids of pages deleted at some point: links to them are broken. */
  removed: string[];
}

export interface Real {
  platform: Platform;
  clock: ReturnType<typeof manualClock>;
  api: Api;
  spaceId: string;
  changeRequestId: string;
  /** The test's own derived cache: the incremental index lives here from step to step. */
  cache: DerivedCache;
  /** How many page bodies the last incremental index parsed at most (the pages the last batch wrote). */
  parseBudget: number;
}

/** A copy of a state (pages are replaced, never changed in place, so the map is copied shallowly). */
export const copyState = (state: State): State => ({ pages: new Map(state.pages), files: [...state.files] });

/** A page's heading anchors, numbered for repeats as GitHub does. */
export function anchorsOf(page: ModelPage | undefined): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const word of page?.headings ?? []) {
    const count = seen.get(word) ?? 0;
    anchors.add(count === 0 ? word : `${word}-${count}`);
    seen.set(word, count + 1);
  }
  return anchors;
}

/** A target's status in a state. */
export function statusIn(state: State, target: Target): 'ok' | 'broken' | 'in-app' {
  if (target.kind === 'page') {
    const page = state.pages.get(target.page);
    if (!page) return 'broken';
    return target.anchor === undefined || anchorsOf(page).has(target.anchor) ? 'ok' : 'broken';
  }
  if (target.kind === 'file') return state.files.includes(target.file) ? 'ok' : 'broken';
  if (target.url === './missing.md') return 'broken';
  return target.url.startsWith(`${APP}/`) ? 'in-app' : 'ok';
}

/** A target as one comparable string. */
export function describe(target: Target): string {
  if (target.kind === 'page') return `page ${target.page}#${target.anchor ?? ''}`;
  if (target.kind === 'file') return `file ${target.file}`;
  return `url ${target.url}`;
}

/** The distinct targets of a page, described. */
export const targetsOf = (page: ModelPage | undefined): Map<string, Target> => new Map((page?.links ?? []).map((target) => [describe(target), target]));

/** The Markdown of a document page: its headings, then a paragraph of links (files as images). */
export function markdownOf(page: ModelPage): string {
  const url = (target: Target) =>
    target.kind === 'page'
      ? target.page === page.id && target.anchor !== undefined
        ? `#${target.anchor}`
        : `/pages/${target.page}${target.anchor === undefined ? '' : `#${target.anchor}`}`
      : target.kind === 'file'
        ? `/files/${target.file}`
        : target.url;
  const links = page.links.map((target, i) => (target.kind === 'file' ? `![f${i}](${url(target)})` : `[l${i}](${url(target)})`));
  return [...page.headings.map((word) => `## ${word[0].toUpperCase()}${word.slice(1)}`), links.join(' ')].filter(Boolean).join('\n\n');
}

/** Every page of a state under `id`, itself included. */
export function subtree(state: State, id: string): string[] {
  const out = [id];
  for (const page of state.pages.values()) if (page.parent === id) out.push(...subtree(state, page.id));
  return out;
}
