import { badRequest } from '../../errors.js';
import { decodeText } from './fetch-source.js';
import { baseName, folderOf, isMarkdownPath, layoutPages, resolvePath, type Slot } from './layout.js';
import { hasScheme, importedMarkdown, pageTitle } from './page-body.js';
import type { UnstoredFile } from './local-ids.js';
import type { PlannedPage } from './plan.js';
import { MAX_IMPORT_PAGES } from './schemas.js';

/**
 * A tree of Markdown files and other files (a zip archive, a Git repository) to a page tree (layout.ts says
 * where each page goes). Links between the tree's files are made to point at what they became: a link to a
 * Markdown file (or to a folder, or to `name` for `name.md`) becomes `/pages/<id>` (its `#anchor` kept), a
 * link or image to any other file of the tree becomes `/files/<id>` and that file is imported; links to
 * nothing in the tree are kept as written. Other files are skipped, unless they are in the assets folder.
 */

/** The files of a tree, by path from its root, and how to read one. */
export interface SourceTree {
  readonly paths: readonly string[];
  read(path: string): Uint8Array;
}

/** What a tree's format says beyond its files. */
export interface TreeFormat {
  /** The path of its table of contents; else a root `SUMMARY.md` in any case, if there is one. */
  readonly summary?: string;
  /** A folder whose files are all imported, linked or not (Git Sync's `.gitbook/assets`). */
  readonly assets?: string;
  /** Whether its pages' titles keep their runs of spaces (Git Sync's: it wrote them from pages' titles). */
  readonly exactTitles?: boolean;
}

/** Media types of the files a tree usually holds, by extension; anything else is generic bytes. */
const MEDIA_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
};

/** The media type of a file of a tree, from its extension. */
export const mediaTypeOf = (path: string): string => MEDIA_TYPES[/\.([A-Za-z0-9]+)$/.exec(path)?.[1].toLowerCase() ?? ''] ?? 'application/octet-stream';

/** The pages and files of a tree (their bytes, to store), and how many of its files they use. */
export interface PlannedTree {
  readonly pages: PlannedPage[];
  readonly files: UnstoredFile[];
  readonly used: number;
  /** The Markdown file each page was read from, by page id (pages without one are not listed). */
  readonly sources: ReadonlyMap<string, string>;
  /** The path of each file, by file id. */
  readonly fileSources: ReadonlyMap<string, string>;
}

/** The state of one tree's import while its plan is made. */
class TreePlanner {
  /** Page id by the Markdown file that is its body, and by the folder it stands for. */
  private readonly pageOfFile = new Map<string, string>();
  private readonly pageOfFolder = new Map<string, string>();
  /** The other files pages link to: their id by path, in the order they were first linked. */
  private readonly fileIds = new Map<string, string>();
  private readonly present: ReadonlySet<string>;

  constructor(
    private readonly newId: () => string,
    private readonly tree: SourceTree,
    private readonly where: string,
    private readonly format: TreeFormat,
  ) {
    this.present = new Set(tree.paths);
  }

  /** Gives every page of a layout its id, before any body is read, so that links can name pages further on. */
  private assign(slots: readonly Slot[], ids: Map<Slot, string>): void {
    for (const slot of slots) {
      const id = this.newId();
      ids.set(slot, id);
      if (slot.source !== undefined) this.pageOfFile.set(slot.source, id);
      if (slot.folder !== undefined) this.pageOfFolder.set(slot.folder, id);
      this.assign(slot.children, ids);
    }
  }

  /** The id of a file of the tree that is imported, given on its first mention. */
  private fileId(path: string): string {
    if (!this.fileIds.has(path)) this.fileIds.set(path, this.newId());
    return this.fileIds.get(path)!;
  }

  /** Where a URL written in the file at `from` points once imported; undefined to keep it as written. */
  private rewrite(from: string, url: string): string | undefined {
    if (url === '' || url.startsWith('#') || url.startsWith('//') || hasScheme(url)) return undefined;
    const hashAt = url.indexOf('#');
    const hash = hashAt < 0 ? '' : url.slice(hashAt);
    const path = resolvePath(folderOf(from), url.slice(0, hashAt < 0 ? undefined : hashAt).split('?')[0]);
    if (path === undefined) return undefined;
    const bare = path.replace(/\/$/, '');
    const page = this.pageOfFile.get(bare) ?? this.pageOfFile.get(`${bare}.md`) ?? this.pageOfFolder.get(bare);
    if (page !== undefined) return `/pages/${page}${hash}`;
    if (!this.present.has(bare) || isMarkdownPath(bare)) return undefined;
    return `/files/${this.fileId(bare)}`;
  }

  /** The planned page of a slot and its subpages, bodies read and links rewritten. */
  private page(slot: Slot, ids: ReadonlyMap<Slot, string>): PlannedPage {
    const source = slot.source;
    const body =
      source === undefined
        ? { title: pageTitle(slot.titles, this.format.exactTitles), meta: {}, markdown: '' }
        : importedMarkdown(this.text(source), `${this.where}: ${source}`, slot.titles, (url) => this.rewrite(source, url), this.format.exactTitles);
    const title = slot.treeTitle === undefined ? body.title : pageTitle([slot.treeTitle], this.format.exactTitles);
    const pages = slot.children.map((child) => this.page(child, ids));
    return { id: ids.get(slot)!, type: slot.type, ...body, title, ...(slot.url !== undefined && { url: slot.url }), pages };
  }

  /** The text of a Markdown file of the tree; a 400 when it is not UTF-8. */
  private text(path: string): string {
    const text = decodeText(this.tree.read(path));
    if (text === undefined) throw badRequest(`${this.where}: ${path} is not UTF-8 text`);
    return text;
  }

  /** The pages and files of the tree. */
  plan(layout: (slots: Slot[]) => Slot[]): PlannedTree {
    const slots = layout(layoutPages(this.tree.paths, (path) => this.text(path), this.format.summary));
    if (slots.length === 0) throw badRequest(`${this.where} holds no Markdown files (.md) to make pages of`);
    const ids = new Map<Slot, string>();
    this.assign(slots, ids);
    if (ids.size > MAX_IMPORT_PAGES) throw badRequest(`${this.where} would make ${ids.size} pages, more than ${MAX_IMPORT_PAGES}`);
    const pages = slots.map((slot) => this.page(slot, ids));
    const assets = this.format.assets;
    if (assets !== undefined) for (const path of this.tree.paths) if (path.startsWith(`${assets}/`) && !isMarkdownPath(path)) this.fileId(path);
    const files = [...this.fileIds].map(([path, id]) => {
      // File names are at most 256 characters: a longer one keeps its end, where the extension is.
      const name = [...baseName(path)].slice(-256).join('');
      return { id, name, contentType: mediaTypeOf(path), bytes: this.tree.read(path) };
    });
    const sources = new Map([...this.pageOfFile].map(([path, id]) => [id, path]));
    const fileSources = new Map([...this.fileIds].map(([path, id]) => [id, path]));
    return { pages, files, used: this.pageOfFile.size + files.length, sources, fileSources };
  }
}

/**
 * Plans the pages and files of a tree of files: a 400 (its message starting with `where`) when a Markdown
 * file is not UTF-8 or breaks a limit, or when the tree holds no Markdown. `layout` may reorder the top level.
 */
export function planTree(newId: () => string, tree: SourceTree, where: string, format: TreeFormat = {}, layout: (slots: Slot[]) => Slot[] = (slots) => slots): PlannedTree {
  return new TreePlanner(newId, tree, where, format).plan(layout);
}
