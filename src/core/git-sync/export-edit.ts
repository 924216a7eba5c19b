import { isMarkdownPath, resolvePath } from '../content/import/layout.js';
import { parseSummary, type SummaryItem } from '../content/import/summary.js';
import { decodeText } from '../content/import/fetch-source.js';
import { hasScheme } from '../content/import/page-body.js';
import { DEFAULT_CONFIG, GITBOOK_YAML, readGitbookConfig, type GitbookConfig } from './gitbook-yaml.js';
import { ASSETS_FOLDER } from './read-repository.js';
import { below, joinPath, requireSafePath, safeRelativePath } from './repo-paths.js';
import type { FetchedTree } from './transport.js';

/**
 * What an export may rewrite in a branch: only the docs the space owns, as an import would read them, so
 * that code, CI files and other Markdown next to them stay as they are. In the head's docs (its
 * `.gitbook.yaml` in the project directory, the docs under its `root`), the space owns that configuration,
 * the summary, the pages the summary lists and its readme, and the files of `.gitbook/assets/`. Without a
 * summary (docs the platform never wrote), other Markdown files may be anything (a changelog, a contributing
 * guide): they stay, though an import reads them as pages. The export keeps the head's `root` and redirects.
 */

/** The docs of a branch's head: where they are, and the paths (from the repository's root) the space owns. */
export interface HeadDocs {
  /** The project directory, canonical ('' for the repository's root). */
  readonly project: string;
  readonly config: GitbookConfig;
  readonly owned: ReadonlySet<string>;
}

/** The Markdown files a summary's items list, relative to the docs. */
function listed(items: readonly SummaryItem[], into: Set<string>): Set<string> {
  for (const item of items) {
    const target = item.target?.split('#')[0];
    if (target !== undefined && target !== '' && !hasScheme(target) && !target.startsWith('//')) {
      const path = resolvePath('', target);
      if (path !== undefined && safeRelativePath(path) === path && isMarkdownPath(path)) into.add(path);
    }
    listed(item.children, into);
  }
  return into;
}

/** The project directory (`repoProjectDirectory`) as a canonical folder, or a 400 when it is unsafe. */
export const projectFolder = (directory: string): string => requireSafePath(directory.replace(/^\.?\/+|\/+$/g, ''), 'repoProjectDirectory');

/** Reads the docs of a branch's head (undefined: a branch that does not exist yet) below a project directory. */
export function headDocs(head: FetchedTree | undefined, projectDirectory: string): HeadDocs {
  const project = projectFolder(projectDirectory);
  const files = new Map((head?.files ?? []).map((file) => [file.path, file.bytes]));
  const configBytes = files.get(joinPath(project, GITBOOK_YAML));
  const configText = configBytes && decodeText(configBytes);
  const config = configText === undefined ? DEFAULT_CONFIG : readGitbookConfig(configText);
  const docs = joinPath(project, config.root);
  const inDocs = new Map<string, Uint8Array>();
  for (const [path, bytes] of files) {
    const relative = below(docs, path);
    if (relative !== undefined) inDocs.set(relative, bytes);
  }
  const summaryBytes = inDocs.get(config.summary);
  const summaryText = summaryBytes && decodeText(summaryBytes);
  // Without a summary, no Markdown file is known to be a page but the readme: the others stay.
  const pages = [config.summary, config.readme, ...(summaryText === undefined ? [] : listed(parseSummary(summaryText), new Set()))];
  const assets = [...inDocs.keys()].filter((path) => path.startsWith(`${ASSETS_FOLDER}/`));
  const owned = new Set([joinPath(project, GITBOOK_YAML), ...[...pages, ...assets].map((path) => joinPath(docs, path))]);
  return { project, config, owned };
}
