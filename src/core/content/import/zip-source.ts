import { badRequest } from '../../errors.js';
import type { FetchedBytes } from '../../fetch-bytes.js';
import { decodeText } from './fetch-source.js';
import { baseName, folderOf, isMarkdownPath, layoutPages, resolvePath, type Slot } from './layout.js';
import { hasScheme, importedMarkdown, pageTitle } from './page-body.js';
import type { UnsettledPlan, UnstoredFile } from './local-ids.js';
import type { PlannedPage } from './plan.js';
import { MAX_IMPORT_PAGES } from './schemas.js';
import { openZip, type ZipArchive, type ZipEntry } from './zip.js';

/**
 * A zip archive of Markdown files and images to a page tree (layout.ts says where each page goes). Links
 * between the archive's files are made to point at what they became: a link to a Markdown file (or to a
 * folder, or to `name` for `name.md`) becomes `/pages/<id>` (its `#anchor` kept), a link or image to any
 * other file of the archive becomes `/files/<id>` and that file is imported; links to nothing in the
 * archive are kept as written. Files nothing links to are skipped.
 */

/** Media types of the files an archive usually holds, by extension; anything else is generic bytes. */
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

/** The media type of a file of an archive, from its extension. */
const mediaTypeOf = (path: string): string => MEDIA_TYPES[/\.([A-Za-z0-9]+)$/.exec(path)?.[1].toLowerCase() ?? ''] ?? 'application/octet-stream';

/** Entries that operating systems add to archives and that are nobody's content (`__MACOSX/`, `._x`, `.DS_Store`). */
const isClutter = (path: string): boolean =>
  path.startsWith('__MACOSX/') || /(^|\/)\._/.test(path) || /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/i.test(path) || path.split('/').includes('..');

/** The entries by path, without the one folder that wraps them all when there is one (`project-main/...`). */
function unwrap(entries: readonly ZipEntry[]): Map<string, ZipEntry> {
  const first = entries[0]?.path.split('/')[0];
  const wrapped = first !== undefined && entries.every((entry) => entry.path.startsWith(`${first}/`));
  return new Map(entries.map((entry) => [wrapped ? entry.path.slice(first.length + 1) : entry.path, entry]));
}

/** The state of one zip import while its plan is made. */
class ZipPlanner {
  /** Page id by the Markdown file that is its body, and by the folder it stands for. */
  private readonly pageOfFile = new Map<string, string>();
  private readonly pageOfFolder = new Map<string, string>();
  /** The other files pages link to: their id by path, in the order they were first linked. */
  private readonly fileIds = new Map<string, string>();

  constructor(
    private readonly newId: () => string,
    private readonly archive: ZipArchive,
    private readonly entries: ReadonlyMap<string, ZipEntry>,
    private readonly where: string,
  ) {}

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
    if (!this.entries.has(bare) || isMarkdownPath(bare)) return undefined;
    if (!this.fileIds.has(bare)) this.fileIds.set(bare, this.newId());
    return `/files/${this.fileIds.get(bare)}`;
  }

  /** The planned page of a slot and its subpages, bodies read and links rewritten. */
  private page(slot: Slot, ids: ReadonlyMap<Slot, string>): PlannedPage {
    const source = slot.source;
    const body =
      source === undefined
        ? { title: pageTitle(slot.titles), meta: {}, markdown: '' }
        : importedMarkdown(this.text(source), `${this.where}: ${source}`, slot.titles, (url) => this.rewrite(source, url));
    const pages = slot.children.map((child) => this.page(child, ids));
    return { id: ids.get(slot)!, type: slot.type, ...body, ...(slot.url !== undefined && { url: slot.url }), pages };
  }

  /** The text of a Markdown file of the archive; a 400 when it is not UTF-8. */
  private text(path: string): string {
    const text = decodeText(this.archive.read(this.entries.get(path)!));
    if (text === undefined) throw badRequest(`${this.where}: ${path} is not UTF-8 text`);
    return text;
  }

  /** The pages and files of the archive (their bytes, to store), and how many of its entries they use. */
  plan(): { pages: PlannedPage[]; files: UnstoredFile[]; used: number } {
    const slots = layoutPages([...this.entries.keys()], (path) => this.text(path));
    if (slots.length === 0) throw badRequest(`${this.where} holds no Markdown files (.md) to make pages of`);
    const ids = new Map<Slot, string>();
    this.assign(slots, ids);
    if (ids.size > MAX_IMPORT_PAGES) throw badRequest(`${this.where} would make ${ids.size} pages, more than ${MAX_IMPORT_PAGES}`);
    const pages = slots.map((slot) => this.page(slot, ids));
    const files = [...this.fileIds].map(([path, id]) => {
      // File names are at most 256 characters: a longer one keeps its end, where the extension is.
      const name = [...baseName(path)].slice(-256).join('');
      return { id, name, contentType: mediaTypeOf(path), bytes: this.archive.read(this.entries.get(path)!) };
    });
    return { pages, files, used: this.pageOfFile.size + files.length };
  }
}

/**
 * Plans the import of a zip archive: a 400 when it is not a zip, is damaged, breaks a limit or holds no
 * Markdown. The files it uses come with their bytes, stored before the transaction (local-ids.ts).
 */
export function planZip(newId: () => string, url: string, fetched: FetchedBytes): UnsettledPlan {
  const where = `url: ${url}`;
  const archive = openZip(fetched.bytes, where);
  const content = archive.entries.filter((entry) => !isClutter(entry.path));
  const { pages, files, used } = new ZipPlanner(newId, archive, unwrap(content), where).plan();
  // Every file entry of the archive was processed; those that became no page and no file were skipped.
  return { pages, files, skipped: archive.entries.length - used };
}
