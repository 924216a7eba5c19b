import type { Root } from 'mdast';
import { visitUrls } from '../markdown.js';
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
 * Points the links of a page body at ids, as the public API does: `./<ref>` (or `./<ref>.md`) of a page or
 * a file inserted in the batch becomes `/pages/<id>` or `/files/<id>`, and `/pages/<path>` (a slug path, or
 * the Git path `<path>.md`, `<path>/README.md`) becomes `/pages/<id>` of the page at that path. Links to
 * nothing stay as they are: the links report shows them as broken.
 */
export async function resolveLinks(body: Root, draft: RevisionDraft, refs: BatchRefs): Promise<void> {
  const nodes: { url: string }[] = [];
  visitUrls(body, (node) => void nodes.push(node));
  for (const node of nodes) {
    const [target, hash] = splitHash(node.url);
    const local = target.replace(/^\.\//, '');
    const pageRef = refs.pages.get(local) ?? refs.pages.get(local.replace(/\.md$/i, ''));
    if (target !== local || refs.pages.has(target) || refs.files.has(target)) {
      if (pageRef !== undefined) node.url = `/pages/${pageRef}${hash}`;
      else if (refs.files.has(local)) node.url = `/files/${refs.files.get(local)}`;
      continue;
    }
    if (!target.startsWith('/pages/')) continue;
    let named: string;
    try {
      named = decodeURIComponent(target.slice('/pages/'.length));
    } catch {
      continue;
    }
    if (named === '' || (await draft.page(named))) continue;
    const path = pathOfGitLink(named);
    const page = path === 'home' ? (await draft.childrenOf(null))[0] : await draft.pageAtPath(path);
    if (page) node.url = `/pages/${page.id}${hash}`;
  }
}
