import type { RevisionDraft } from '../draft.js';

/** The batch-local refs of a batch: ref → id of the page or file it names. */
export interface BatchRefs {
  readonly pages: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, string>;
}

/**
 * The page path a Git-style link names: `guides/setup.md` and `guides/setup/README.md` name the page at
 * `guides/setup`; `README.md` alone names the first top-level page (the space's home).
 */
function pathOfGitLink(link: string): string | 'home' {
  const path = link.replace(/\.md$/i, '');
  if (path === 'README') return 'home';
  return path.replace(/\/README$/i, '');
}

/** A URL split at its first `#`. */
function splitHash(url: string): [string, string] {
  const at = url.indexOf('#');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/**
 * Where the links of a page body point instead, as the public API has them: `./<ref>` (or `./<ref>.md`) of a
 * page or a file inserted in the batch becomes `/pages/<id>` or `/files/<id>`, and `/pages/<path>` (a slug
 * path, or the Git path `<path>.md`, `<path>/README.md`) becomes `/pages/<id>` of the page at that path. Given
 * the URLs a body holds, answers those that change, with their new URL; links to nothing stay as they are:
 * the links report shows them as broken.
 */
export async function linkRewrites(urls: readonly string[], draft: RevisionDraft, refs: BatchRefs): Promise<Map<string, string>> {
  const rewrites = new Map<string, string>();
  for (const url of urls) {
    const to = await resolvedUrl(url, draft, refs);
    if (to !== undefined && to !== url) rewrites.set(url, to);
  }
  return rewrites;
}

/** Where one URL of a body points instead (see linkRewrites); undefined when it stays. */
async function resolvedUrl(url: string, draft: RevisionDraft, refs: BatchRefs): Promise<string | undefined> {
  const [target, hash] = splitHash(url);
  const local = target.replace(/^\.\//, '');
  const pageRef = refs.pages.get(local) ?? refs.pages.get(local.replace(/\.md$/i, ''));
  if (target !== local || refs.pages.has(target) || refs.files.has(target)) {
    if (pageRef !== undefined) return `/pages/${pageRef}${hash}`;
    if (refs.files.has(local)) return `/files/${refs.files.get(local)}`;
    return undefined;
  }
  if (!target.startsWith('/pages/')) return undefined;
  let named: string;
  try {
    named = decodeURIComponent(target.slice('/pages/'.length));
  } catch {
    return undefined;
  }
  if (named === '' || (await draft.page(named))) return undefined;
  const path = pathOfGitLink(named);
  const page = path === 'home' ? (await draft.childrenOf(null))[0] : await draft.pageAtPath(path);
  return page ? `/pages/${page.id}${hash}` : undefined;
}
