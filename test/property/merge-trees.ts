import fc from 'fast-check';
import { pathUnder, type FileEntry, type PageEntry, type PageType } from '../../src/core/content/model.js';
import { slugify, withSuffix } from '../../src/core/content/slugs.js';
import { keyBetween } from '../../src/core/ordering/keys.js';

/**
 * Random page trees and random edit scripts for the merge properties: a plain in-memory editor that keeps
 * the rules a revision keeps (a forest; groups only at the top; children only under document and group
 * pages; slugs unique among siblings; order keys unique among siblings; paths following slugs). Edits pick
 * their targets by position (`fc.nat()` modulo the number of pages), so every script applies and shrinks.
 */

/** A revision's content as the merge sees it, plus the bodies of its documents (shared by all sides). */
export interface Side {
  byId: Map<string, PageEntry>;
  files: FileEntry[];
}

/** Page bodies by document id; documents are immutable, so one map serves every side. */
export type Docs = Map<string, string>;

/** One edit. */
export type Edit =
  | { op: 'insert'; type: PageType; parent: number; top: boolean; at: number; title: string; lines: string[] }
  | { op: 'title'; page: number; title: string }
  | { op: 'flag'; page: number; field: 'hidden' | 'emoji' | 'description'; on: boolean }
  | { op: 'body'; page: number; line: number; kind: 'replace' | 'insert' | 'delete'; text: string }
  | { op: 'move'; page: number; parent: number; top: boolean; at: number }
  | { op: 'slug'; page: number; slug: string }
  | { op: 'delete'; page: number }
  | { op: 'addFile'; name: string }
  | { op: 'renameFile'; file: number; name: string }
  | { op: 'deleteFile'; file: number };

const word = fc.constantFrom('intro', 'guide', 'api', 'setup', 'faq', 'Intro', 'Guide');
const line = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', '', '# Title', '- item');

/** One random edit. */
export const editArb: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insert' as const), type: fc.constantFrom<PageType>('document', 'document', 'group', 'link'), parent: fc.nat(), top: fc.boolean(), at: fc.nat(), title: word, lines: fc.array(line, { maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('title' as const), page: fc.nat(), title: word }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('flag' as const), page: fc.nat(), field: fc.constantFrom('hidden' as const, 'emoji' as const, 'description' as const), on: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('body' as const), page: fc.nat(), line: fc.nat(), kind: fc.constantFrom('replace' as const, 'insert' as const, 'delete' as const), text: line }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('move' as const), page: fc.nat(), parent: fc.nat(), top: fc.boolean(), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('slug' as const), page: fc.nat(), slug: word.map((w) => w.toLowerCase()) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), page: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('addFile' as const), name: word.map((w) => `${w}.png`) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('renameFile' as const), file: fc.nat(), name: word.map((w) => `${w}.jpg`) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteFile' as const), file: fc.nat() }) },
);

/** The three sides of a merge case: a base made by a script from nothing, ours and theirs each made by a script from the base. */
export function sidesOf(scripts: { readonly base: readonly Edit[]; readonly ours: readonly Edit[]; readonly theirs: readonly Edit[] }) {
  const docs: Docs = new Map();
  const base = applyScript(emptySide(), scripts.base, docs, 'b', '2024-01-01T00:00:00.000Z');
  return {
    docs,
    base,
    ours: applyScript(base, scripts.ours, docs, 'o', '2024-01-02T00:00:00.000Z'),
    theirs: applyScript(base, scripts.theirs, docs, 't', '2024-01-03T00:00:00.000Z'),
  };
}

/** A script of edits. */
export const scriptArb = (maxLength: number) => fc.array(editArb, { maxLength });

/** Edits of existing pages only (bodies, moves, titles, slugs): two such scripts on one base collide often. */
export const contendedScriptArb = (maxLength: number) =>
  fc.array(
    editArb.filter((edit) => ['body', 'move', 'title', 'slug'].includes(edit.op)),
    { maxLength },
  );

/** A base of a few pages for contended scripts. */
export const insertsArb = fc.array(editArb.filter((edit) => edit.op === 'insert'), { minLength: 3, maxLength: 8 });

/** An empty side. */
export const emptySide = (): Side => ({ byId: new Map(), files: [] });

/** A deep copy of a side (entries are replaced, never mutated, so copying the maps is enough). */
export const copySide = (side: Side): Side => ({ byId: new Map(side.byId), files: [...side.files] });

/** The body of a page ('' for none). */
export const textOf = (docs: Docs, page: PageEntry | undefined) => (page?.document === undefined ? '' : docs.get(page.document)!);

/** The children of a parent (null: top level), in order. */
export function childrenOf(side: Side, parent: string | null): PageEntry[] {
  return [...side.byId.values()].filter((page) => page.parent === parent).sort((a, b) => (a.order < b.order ? -1 : 1));
}

/**
 * Applies a script to a copy of `side`. New pages, documents and files get ids `<prefix><n>`, so two
 * scripts with different prefixes never make the same id. `stamp` is the time written on changes.
 */
export function applyScript(side: Side, script: readonly Edit[], docs: Docs, prefix: string, stamp: string): Side {
  const out = copySide(side);
  let n = 0;
  const newId = () => `${prefix}${++n}`;
  const pick = (index: number) => {
    const ids = [...out.byId.keys()].sort();
    return ids.length === 0 ? undefined : out.byId.get(ids[index % ids.length])!;
  };
  const put = (page: PageEntry) => out.byId.set(page.id, page);
  const touch = (page: PageEntry, changes: Partial<PageEntry>) => put(clean({ ...page, ...changes, updatedAt: stamp }));
  for (const edit of script) {
    switch (edit.op) {
      case 'insert': {
        const parent = edit.top || edit.type === 'group' ? null : parentCandidate(out, edit.parent);
        const siblings = childrenOf(out, parent?.id ?? null);
        const at = edit.at % (siblings.length + 1);
        const slug = freeSlug(out, parent?.id ?? null, slugify(edit.title));
        const id = newId();
        let document: string | undefined;
        if (edit.type === 'document' && edit.lines.length > 0) {
          document = newId();
          docs.set(document, edit.lines.join('\n'));
        }
        put(clean({
          id, type: edit.type, title: edit.title, slug, path: '', parent: parent?.id ?? null,
          order: keyBetween(siblings[at - 1]?.order ?? null, siblings[at]?.order ?? null),
          document, target: edit.type === 'link' ? { kind: 'url', url: 'https://example.com' } : undefined,
          createdAt: stamp, updatedAt: stamp,
        }));
        break;
      }
      case 'title': {
        const page = pick(edit.page);
        if (page) touch(page, { title: edit.title });
        break;
      }
      case 'flag': {
        const page = pick(edit.page);
        const value = edit.field === 'hidden' ? edit.on || undefined : edit.on ? (edit.field === 'emoji' ? '1f600' : 'About this page') : undefined;
        if (page) touch(page, { [edit.field]: value });
        break;
      }
      case 'body': {
        const page = pick(edit.page);
        if (!page || page.type !== 'document') break;
        const lines = textOf(docs, page).split('\n');
        const i = edit.line % (lines.length + (edit.kind === 'insert' ? 1 : 0));
        if (edit.kind === 'replace') lines[i] = edit.text;
        else if (edit.kind === 'insert') lines.splice(i, 0, edit.text);
        else lines.splice(i, 1);
        const text = lines.join('\n');
        let document: string | undefined;
        if (text !== '') {
          document = newId();
          docs.set(document, text);
        }
        touch(page, { document });
        break;
      }
      case 'move': {
        const page = pick(edit.page);
        if (!page) break;
        const parent = edit.top || page.type === 'group' ? null : parentCandidate(out, edit.parent);
        if (parent && isUnder(out, parent.id, page.id)) break;
        if ((parent?.id ?? null) !== page.parent && slugTaken(out, parent?.id ?? null, page.slug, page.id)) break;
        const siblings = childrenOf(out, parent?.id ?? null).filter((sibling) => sibling.id !== page.id);
        const at = edit.at % (siblings.length + 1);
        put({ ...page, parent: parent?.id ?? null, order: keyBetween(siblings[at - 1]?.order ?? null, siblings[at]?.order ?? null) });
        break;
      }
      case 'slug': {
        const page = pick(edit.page);
        if (page && !slugTaken(out, page.parent, edit.slug, page.id)) touch(page, { slug: edit.slug });
        break;
      }
      case 'delete': {
        const page = pick(edit.page);
        if (!page) break;
        // Find the whole subtree before deleting: a walk up needs the pages on the way.
        const doomed = [...out.byId.keys()].filter((id) => isUnder(out, id, page.id));
        for (const id of doomed) out.byId.delete(id);
        break;
      }
      case 'addFile':
        out.files.push({ id: newId(), name: edit.name, contentType: 'image/png', size: 3, digest: 'd', gitOid: 'g', createdAt: stamp });
        break;
      case 'renameFile':
        if (out.files.length > 0) {
          const i = edit.file % out.files.length;
          out.files[i] = { ...out.files[i], name: edit.name };
        }
        break;
      case 'deleteFile':
        if (out.files.length > 0) out.files.splice(edit.file % out.files.length, 1);
        break;
    }
  }
  out.files.sort((a, b) => (a.id < b.id ? -1 : 1));
  return withPaths(out);
}

/** A page with no undefined or false optional fields (how a revision stores one). */
function clean(page: PageEntry): PageEntry {
  return Object.fromEntries(Object.entries(page).filter(([, value]) => value !== undefined && value !== false)) as unknown as PageEntry;
}

/** A document or group page to put a page under (undefined: none, so the top level). */
function parentCandidate(side: Side, index: number): PageEntry | undefined {
  const parents = [...side.byId.values()].filter((page) => page.type === 'document' || page.type === 'group').sort((a, b) => (a.id < b.id ? -1 : 1));
  return parents.length === 0 ? undefined : parents[index % parents.length];
}

/** Whether page `id` is `ancestor` or under it. */
function isUnder(side: Side, id: string, ancestor: string): boolean {
  for (let at: string | null = id; at !== null; at = side.byId.get(at)?.parent ?? null) if (at === ancestor) return true;
  return false;
}

function slugTaken(side: Side, parent: string | null, slug: string, except: string): boolean {
  return childrenOf(side, parent).some((page) => page.slug === slug && page.id !== except);
}

function freeSlug(side: Side, parent: string | null, base: string): string {
  for (let n = 1; ; n++) if (!slugTaken(side, parent, withSuffix(base, n), '')) return withSuffix(base, n);
}

/** Recomputes every path from the slugs. */
function withPaths(side: Side): Side {
  const visit = (parent: string | null, parentPath: string | null) => {
    for (const page of childrenOf(side, parent)) {
      const path = pathUnder(parentPath, page.slug);
      if (page.path !== path) side.byId.set(page.id, { ...page, path });
      visit(page.id, path);
    }
  };
  visit(null, null);
  return side;
}

/** The rules every revision keeps; returns what is broken ('' when nothing). */
export function treeProblems(pages: ReadonlyMap<string, PageEntry>): string {
  const problems: string[] = [];
  const paths = new Set<string>();
  for (const page of pages.values()) {
    if (page.parent !== null) {
      const parent = pages.get(page.parent);
      if (!parent) problems.push(`${page.id}: parent ${page.parent} missing`);
      else if (parent.type !== 'document' && parent.type !== 'group') problems.push(`${page.id}: under a ${parent.type}`);
      if (page.type === 'group') problems.push(`${page.id}: group below the top level`);
      const expected = parent ? pathUnder(parent.path, page.slug) : undefined;
      if (expected !== undefined && page.path !== expected) problems.push(`${page.id}: path ${page.path} != ${expected}`);
    } else if (page.path !== page.slug) problems.push(`${page.id}: top-level path ${page.path}`);
    if (paths.has(page.path)) problems.push(`path ${page.path} twice`);
    paths.add(page.path);
    const siblings = [...pages.values()].filter((other) => other.parent === page.parent && other.id !== page.id);
    if (siblings.some((other) => other.order === page.order)) problems.push(`${page.id}: order ${page.order} shared`);
    for (let at: string | null = page.parent, steps = 0; at !== null; at = pages.get(at)?.parent ?? null) {
      if (++steps > pages.size) {
        problems.push(`${page.id}: in a cycle`);
        break;
      }
    }
  }
  return problems.join('; ');
}
