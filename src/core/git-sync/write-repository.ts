import type { Heading, List, ListItem, Root, RootContent } from 'mdast';
import { stringify as stringifyYaml } from 'yaml';
import { gitFilePath, gitPagePath } from '../content/git.js';
import type { PlannedMeta, PlannedPage } from '../content/import/plan.js';
import { parseMarkdown, stringifyMarkdown, visitUrls } from '../content/markdown.js';
import { markdownExcess } from '../content/markdown-limits.js';
import { GITBOOK_YAML, writeGitbookConfig, type GitbookConfig } from './gitbook-yaml.js';
import { joinPath, relativePath, safeRelativePath } from './repo-paths.js';

/**
 * A space's content as files of the hosted repository format: one Markdown file per document page at its
 * Git path (`path.md`, or `path/README.md` with subpages), its fields in front matter and its title as the
 * first heading; `SUMMARY.md` for the tree (groups as `## Headings`, link pages as items whose target is a
 * URL); the files in `.gitbook/assets/`; `.gitbook.yaml` with `root`, `structure` and the redirects. Links
 * to pages (`/pages/<id>`) and files (`/files/<id>`) become relative paths. read-repository.ts reads it back.
 *
 * One limit of the format: the summary cannot place a top-level page after a group, so such a page is
 * read back as the last page of the group before it.
 */

/**
 * Whether a stored body goes into its file as it is, after the head: a body is stored as canonical Markdown
 * (what the printer prints of its tree, which reads back as the same text), so it needs no parsing and
 * printing unless a link in it is rewritten (only `/pages/…` and `/files/…` are) or it goes beyond the limits
 * (stored before them: printing bounds it). Parsing and printing every page was most of an export's work
 * (a 1,000-page space: ~10 s of a worker thread).
 */
const goesAsStored = (markdown: string): boolean => !markdown.includes('/pages/') && !markdown.includes('/files/') && markdownExcess(markdown) === undefined;

/** A page to write: a planned page (title, fields, body, link) with its path of slugs. */
export interface SyncedPage extends PlannedPage {
  /** The slugs from the top level down to it, joined by `/`, as the revision has them. */
  readonly path: string;
  readonly pages: readonly SyncedPage[];
}

/** A file to write. */
export interface SyncedFile {
  readonly id: string;
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** What a repository holds of the docs. */
export interface SyncedContent {
  readonly pages: readonly SyncedPage[];
  readonly files: readonly SyncedFile[];
}

/** Where the summary is written, in the docs. */
const SUMMARY = 'SUMMARY.md';

/** The title line of a summary, which is not a page. */
const SUMMARY_TITLE = 'Table of contents';

/** A path segment as a Markdown link may carry it: what would end or change the link percent-encoded. */
const linkSegment = (segment: string): string => segment.replace(/[%\s()<>#?[\]\\]/g, (character) => encodeURIComponent(character));

/** A relative path as a link target. */
const linkTo = (path: string): string => path.split('/').map(linkSegment).join('/');

/** A file name fit for one path segment. */
const assetName = (name: string): string => name.replace(/[/\\\u0000]/g, '-').replace(/^\.{1,2}$/, '-') || 'file';

/**
 * Paths taken in the docs, compared without case (a checkout on a case-insensitive disk would merge two
 * that differ in case only), and how a path is made unique among them: `image.png`, then `image (1).png`.
 */
class TakenPaths {
  private readonly taken = new Set<string>();

  /** Takes a path if it is free; whether it was. */
  take(path: string): boolean {
    if (this.taken.has(path.toLowerCase())) return false;
    this.taken.add(path.toLowerCase());
    return true;
  }

  /** Takes `path`, or the first free `<stem> (n)<extension>` of it; the path taken. */
  unique(path: string): string {
    const slash = path.lastIndexOf('/');
    const dot = path.lastIndexOf('.');
    const [stem, extension] = dot > slash + 1 ? [path.slice(0, dot), path.slice(dot)] : [path, ''];
    let candidate = path;
    for (let n = 1; !this.take(candidate); n++) candidate = `${stem} (${n})${extension}`;
    return candidate;
  }
}

/** The front matter of a page's fields, or undefined when it sets none. */
function frontMatter(meta: PlannedMeta): string | undefined {
  const fields: Record<string, unknown> = {};
  for (const field of ['description', 'emoji', 'icon'] as const) if (meta[field] !== undefined) fields[field] = meta[field];
  for (const field of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (meta[field]) fields[field] = true;
  // The options set away from the defaults, in the public API's spelling (readFrontmatter reads both).
  if (meta.layout !== undefined && Object.keys(meta.layout).length > 0) fields.layout = { ...meta.layout };
  return Object.keys(fields).length === 0 ? undefined : stringifyYaml(fields).trimEnd();
}

/** Writes repository files from a space's content. */
class RepositoryWriter {
  /** The Git path of each document page and of each file, by id (relative to the docs root). */
  private readonly pathOf = new Map<string, string>();
  readonly files = new Map<string, Uint8Array>();

  constructor(
    private readonly content: SyncedContent,
    recorded: Readonly<Record<string, string>>,
  ) {
    const taken = new TakenPaths();
    taken.take(SUMMARY);
    const documents: SyncedPage[] = [];
    const visit = (pages: readonly SyncedPage[]) => {
      for (const page of pages) {
        if (page.type === 'document') documents.push(page);
        visit(page.pages);
      }
    };
    visit(content.pages);
    // First where the last sync found them, so that a page new on the platform never takes the file of one
    // the repository has (a page's path may be the repository's own, not its slugs').
    for (const { id } of [...content.files, ...documents]) {
      const path = recorded[id] === undefined ? undefined : safeRelativePath(recorded[id]);
      if (path !== undefined && path !== '' && taken.take(path)) this.pathOf.set(id, path);
    }
    for (const file of content.files) if (!this.pathOf.has(file.id)) this.pathOf.set(file.id, taken.unique(gitFilePath(assetName(file.name))));
    for (const page of documents) if (!this.pathOf.has(page.id)) this.pathOf.set(page.id, taken.unique(gitPagePath(page, page.pages.length > 0)));
  }

  /** Where a URL of the page written at `from` points in the repository; undefined to keep it. */
  private rewrite(from: string, url: string): string | undefined {
    const match = /^\/(pages|files)\/([^/#?]+)(#.*)?$/.exec(url);
    const target = match === null ? undefined : this.pathOf.get(match[2]);
    if (match === null || target === undefined) return undefined;
    return linkTo(relativePath(from, target)) + (match[1] === 'pages' ? (match[3] ?? '') : '');
  }

  /** The Markdown file of a document page: front matter, `# Title`, then the body with its links made relative. */
  private pageFile(page: SyncedPage, path: string): string {
    const yaml = frontMatter(page.meta);
    const heading: Heading = { type: 'heading', depth: 1, children: [{ type: 'text', value: page.title }] };
    const head: RootContent[] = [...(yaml === undefined ? [] : [{ type: 'yaml' as const, value: yaml }]), heading];
    if (goesAsStored(page.markdown)) {
      const printedHead = stringifyMarkdown({ type: 'root', children: head });
      return page.markdown === '' ? printedHead : `${printedHead}\n${page.markdown}`;
    }
    const body: Root = parseMarkdown(page.markdown);
    visitUrls(body, (node) => {
      const url = this.rewrite(path, node.url);
      if (url !== undefined) node.url = url;
    });
    return stringifyMarkdown({ type: 'root', children: [...head, ...body.children] });
  }

  /** The summary item of a page, and its pages' files written on the way. */
  private item(page: SyncedPage): ListItem {
    const target = page.type === 'link' ? (page.url ?? '') : linkTo(this.pathOf.get(page.id)!);
    if (page.type === 'document') this.files.set(this.pathOf.get(page.id)!, new TextEncoder().encode(this.pageFile(page, this.pathOf.get(page.id)!)));
    const link: RootContent = { type: 'link', url: target, children: [{ type: 'text', value: page.title }] };
    const children: ListItem['children'] = [{ type: 'paragraph', children: [link] }];
    if (page.pages.length > 0) children.push(this.list(page.pages));
    return { type: 'listItem', spread: false, children };
  }

  /** A summary list of pages. */
  private list(pages: readonly SyncedPage[]): List {
    return { type: 'list', ordered: false, spread: false, children: pages.map((page) => this.item(page)) };
  }

  /** The summary, every page's file written on the way. */
  summary(): string {
    const children: RootContent[] = [{ type: 'heading', depth: 1, children: [{ type: 'text', value: SUMMARY_TITLE }] }];
    let pending: SyncedPage[] = [];
    const flush = () => {
      if (pending.length > 0) children.push(this.list(pending));
      pending = [];
    };
    for (const page of this.content.pages) {
      if (page.type !== 'group') {
        pending.push(page);
        continue;
      }
      flush();
      children.push({ type: 'heading', depth: 2, children: [{ type: 'text', value: page.title }] });
      pending = [...page.pages];
      flush();
    }
    flush();
    return stringifyMarkdown({ type: 'root', children });
  }

  /** The Git path of a document page or a file. */
  pathOfId(id: string): string | undefined {
    return this.pathOf.get(id);
  }

  /** The Git paths of every document page and file, by id. */
  paths(): Map<string, string> {
    return new Map(this.pathOf);
  }

  /** The path of the first document page, the format's `readme`. */
  firstPage(): string | undefined {
    const first = (pages: readonly SyncedPage[]): string | undefined => {
      for (const page of pages) {
        const found = page.type === 'document' ? this.pathOf.get(page.id) : first(page.pages);
        if (found !== undefined) return found;
      }
      return undefined;
    };
    return first(this.content.pages);
  }
}

/** A space's content as repository files, and where each document page and file went. */
export interface WrittenRepository {
  /** The files by path from the folder that holds `.gitbook.yaml`. */
  readonly files: Map<string, Uint8Array>;
  /** The path of each document page and file relative to the docs' root, by id (GitSyncRecord.paths). */
  readonly paths: Map<string, string>;
}

/**
 * The files of a space's content in the repository format, by path from the folder that holds
 * `.gitbook.yaml` (the repository, or its project directory): the configuration there, the docs under
 * `config.root`. The configuration's readme becomes the first page, its summary `SUMMARY.md`. A page or file
 * that `recorded` places (where the last sync found it, relative to the docs' root) is written there again,
 * so that a repository laid out its own way keeps its layout; the others go where their slugs and names say.
 */
export function writeRepository(content: SyncedContent, config: Pick<GitbookConfig, 'root' | 'redirects'>, recorded: Readonly<Record<string, string>> = {}): WrittenRepository {
  const writer = new RepositoryWriter(content, recorded);
  const summary = new TextEncoder().encode(writer.summary());
  const files = new Map<string, Uint8Array>();
  const readme = writer.firstPage() ?? 'README.md';
  files.set(GITBOOK_YAML, new TextEncoder().encode(writeGitbookConfig({ root: config.root, readme, summary: SUMMARY, redirects: config.redirects })));
  files.set(joinPath(config.root, SUMMARY), summary);
  for (const [path, bytes] of writer.files) files.set(joinPath(config.root, path), bytes);
  for (const file of content.files) files.set(joinPath(config.root, writer.pathOfId(file.id)!), file.bytes);
  return { files, paths: writer.paths() };
}
