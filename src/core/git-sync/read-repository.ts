import { badRequest } from '../errors.js';
import { isMarkdownPath, resolvePath, type Slot } from '../content/import/layout.js';
import type { UnsettledPlan } from '../content/import/local-ids.js';
import type { PlannedPage } from '../content/import/plan.js';
import { hasScheme } from '../content/import/page-body.js';
import { parseSummary, type SummaryItem } from '../content/import/summary.js';
import { planTree } from '../content/import/tree-planner.js';
import { decodeText } from '../content/import/fetch-source.js';
import { DEFAULT_CONFIG, GITBOOK_YAML, readGitbookConfig, type GitbookConfig } from './gitbook-yaml.js';
import { below, joinPath, requireSafePath, safeRelativePath } from './repo-paths.js';
import type { GitTreeFile } from './transport.js';

/**
 * Reads docs in the hosted repository format (write-repository.ts writes them) into an import plan: the
 * configuration from `.gitbook.yaml` in the project directory, the docs under its `root`, the tree from its
 * summary (else from the folders, its readme first), every body through the import's Markdown limits, the
 * files of `.gitbook/assets/` and those the pages link to. Whatever is unsafe or malformed is a 400 that
 * names it, before anything is stored: a symlink or an unsafe path among the docs, a summary that leaves
 * the docs, names a file twice or lists no page.
 */

/** One file of a repository's tree: its path from the repository's root, its bytes, whether it is a symlink. */
export type RepoEntry = GitTreeFile;

/** What reading a repository gives: the plan, its configuration, and the file each page was read from. */
export interface RepositoryPlan {
  readonly plan: UnsettledPlan;
  readonly config: GitbookConfig;
  /** The folder of the docs from the repository's root: the project directory and `root`. */
  readonly docs: string;
  /** The Markdown file of each page and the path of each file (relative to the docs), by the plan's id. */
  readonly sources: ReadonlyMap<string, string>;
}

/** The folder that holds assets, relative to the docs. */
export const ASSETS_FOLDER = '.gitbook/assets';

/** Checks a summary's items: every target relative and inside the docs, no Markdown file named twice. */
function checkSummary(items: readonly SummaryItem[], where: string, seen: Set<string>): void {
  for (const item of items) {
    const target = item.target?.split('#')[0];
    if (target !== undefined && target !== '' && !hasScheme(target) && !target.startsWith('//')) {
      const path = resolvePath('', target);
      if (target.startsWith('/') || path === undefined || safeRelativePath(path) === undefined) throw badRequest(`${where}: "${item.target}" points outside the docs`);
      if (isMarkdownPath(path)) {
        if (seen.has(path)) throw badRequest(`${where}: ${path} is listed twice; one file is one page`);
        seen.add(path);
      }
    }
    checkSummary(item.children, where, seen);
  }
}

/** Pages with the Git blob id of the file each was read from (`sourceOid`, by page id), as the tree named it. */
function withOids(pages: readonly PlannedPage[], sourceOid: (id: string) => string | undefined): PlannedPage[] {
  return pages.map((page) => {
    const gitOid = sourceOid(page.id);
    return { ...page, ...(gitOid !== undefined && { gitOid }), pages: withOids(page.pages, sourceOid) };
  });
}

/** The top level with the readme first, when the tree comes from the folders. */
const readmeFirst = (readme: string) => (slots: Slot[]) => {
  const at = slots.findIndex((slot) => slot.source === readme);
  return at <= 0 ? slots : [slots[at], ...slots.slice(0, at), ...slots.slice(at + 1)];
};

/**
 * Reads the docs of a repository's tree: `projectDirectory` is where `.gitbook.yaml` is looked for (''
 * for the repository's root); `where` starts every error message.
 */
export function readRepository(newId: () => string, entries: readonly RepoEntry[], projectDirectory: string, where: string): RepositoryPlan {
  const project = requireSafePath(projectDirectory, 'repoProjectDirectory');
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const configEntry = byPath.get(joinPath(project, GITBOOK_YAML));
  const configText = configEntry && decodeText(configEntry.bytes);
  if (configEntry && configText === undefined) throw badRequest(`${where}: ${GITBOOK_YAML} is not UTF-8 text`);
  const config = configText === undefined ? DEFAULT_CONFIG : readGitbookConfig(configText);
  const docs = joinPath(project, config.root);
  const files = new Map<string, RepoEntry>();
  for (const entry of entries) {
    const path = below(docs, entry.path);
    if (path === undefined) continue;
    if (safeRelativePath(path) !== path) throw badRequest(`${where}: "${entry.path}" is not a safe path`);
    if (entry.symlink) throw badRequest(`${where}: ${entry.path} is a symbolic link; the docs may hold none`);
    files.set(path, entry);
  }
  const summary = files.get(config.summary);
  if (summary !== undefined) {
    const text = decodeText(summary.bytes);
    if (text === undefined) throw badRequest(`${where}: ${config.summary} is not UTF-8 text`);
    const items = parseSummary(text);
    if (items.length === 0) throw badRequest(`${where}: ${config.summary} lists no pages`);
    checkSummary(items, `${where}: ${config.summary}`, new Set());
  }
  const tree = { paths: [...files.keys()], read: (path: string) => files.get(path)!.bytes };
  const planned = planTree(newId, tree, where, { summary: config.summary, assets: ASSETS_FOLDER, exactTitles: true }, summary === undefined ? readmeFirst(config.readme) : undefined);
  const sources = new Map([...planned.sources, ...planned.fileSources]);
  // The tree's blob ids become the pages' and files' `git.oid`: the platform's thread hashes none of them again.
  const sourceOid = (id: string) => {
    const source = sources.get(id);
    return source === undefined ? undefined : files.get(source)?.oid;
  };
  const pages = withOids(planned.pages, sourceOid);
  const planFiles = planned.files.map((file) => {
    const gitOid = sourceOid(file.id);
    return gitOid === undefined ? file : { ...file, gitOid };
  });
  // The summary is used too, though it makes no page.
  const plan = { pages, files: planFiles, skipped: files.size - planned.used - (summary === undefined ? 0 : 1) };
  return { plan, config, docs, sources };
}
