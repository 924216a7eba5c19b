import type { ComputedSource, PageEntry } from '../content/model.js';
import { packedBuffers, StringPacker, unpack, type PackedStrings } from '../packed-strings.js';
import { excerptOf, sectionsOf } from './sections.js';
import { countTerms, drain, TextIndex, wordsIn, type CountedTerms, type Expansion, type TextIndexImage } from './text-index.js';
import { requiredWords, type Words } from './words.js';

/**
 * The search index of one revision: two text indexes (text-index.ts), one of whole pages (title,
 * description, body), which decides which pages match and in what order, and one of their sections,
 * which picks the sections a hit shows. It is built once per revision and then handed over to the next
 * revision, updated page by page (build.ts); it is never rebuilt per query.
 *
 * Pages are removed with exactly what they were added with (indexedPage), so an updated index holds and
 * ranks exactly what an index built from scratch would. Computed pages are indexed with the content they
 * expand into, which follows their specification's latest version rather than the revision: the index
 * keeps, for each, the version its content came from and what it put in, so that build.ts can replace it
 * when the specification has a newer version.
 */

/** What a page puts in the pages index. */
interface PageDocument {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly path: string;
  /** The terms of its fields counted (PAGE_BOOSTS: title, description, the headings of its sections, their text). */
  readonly fields: readonly CountedTerms[];
}

/** What a section puts in the sections index. */
interface SectionDocument {
  /** `<pageId> NUL <position>`: unique in the index. */
  readonly id: string;
  readonly anchor: string | null;
  readonly heading: string;
  readonly excerpt: string;
  /** The terms of its fields counted (SECTION_BOOSTS: heading, text). */
  readonly fields: readonly CountedTerms[];
}

/**
 * Everything one page puts in an index, made from its entry and its Markdown alone (indexedPage), its texts
 * already counted into terms: made by a job for a long page, so that adding it to an index or taking it out
 * only merges counts on the main thread.
 */
export interface IndexedPage {
  readonly document: PageDocument;
  readonly sections: readonly SectionDocument[];
}

/** A computed page in an index: its source, the seed (specification version) its content came from, and what it put in. */
export interface ComputedEntry {
  readonly source: ComputedSource;
  readonly seed: string;
  readonly page: IndexedPage;
}

/** A page that matches a query, before it is presented. */
export interface PageMatch {
  readonly id: string;
  readonly title: string;
  readonly path: string;
  /** How many words of the query it contains (prefix and typo matches count). */
  readonly matched: number;
  /** How many of them are in its title or a heading of its body. */
  readonly prominent: number;
  readonly score: number;
}

/** A section of a matching page that contains some of the query's words. */
export interface SectionMatch {
  /** The heading's anchor; null for the text before the first heading. */
  readonly anchor: string | null;
  readonly heading: string;
  readonly excerpt: string;
}

/** A matching page with the sections to show. */
export interface Hit extends PageMatch {
  readonly sections: readonly SectionMatch[];
}

/** How many sections a hit shows at most, best first. */
export const MAX_SECTIONS_PER_HIT = 5;

/** Field weights (title, description, headings, body): a word in the title counts three times, in the description or a heading twice. */
const PAGE_BOOSTS = [3, 2, 2, 1];
/** The fields whose matches rank a page above pages that have the words only elsewhere: the title and the headings. */
const PROMINENT_PAGE_FIELDS: ReadonlySet<number> = new Set([0, 2]);
/** A word in a section's heading counts twice. */
const SECTION_BOOSTS = [2, 1];

/** What a page carries in the pages index. */
interface PageData {
  readonly title: string;
  readonly path: string;
  readonly sections: number;
}

/** What a section carries in the sections index. */
interface SectionData {
  readonly anchor: string | null;
  readonly heading: string;
  readonly excerpt: string;
}

/** A search index as plain data (SearchIndex.image): what a worker thread that built one sends back. */
export interface SearchIndexImage {
  readonly revisionId: string;
  readonly pages: TextIndexImage;
  readonly sections: TextIndexImage;
  /** Per page number: its title and path. */
  readonly pageData: PackedStrings;
  /** Per page number: how many sections it has. */
  readonly sectionCounts: Uint32Array;
  /** Per section number: its anchor ('' when it has none), heading and excerpt. */
  readonly sectionData: PackedStrings;
  /** Per section number: 1 when it has no anchor (the text before the first heading). */
  readonly noAnchor: Uint8Array;
  readonly tieBreaks: Uint32Array;
}

/** The buffers of an image, which move between threads instead of being copied. */
export function imageBuffers(image: SearchIndexImage): ArrayBuffer[] {
  const text = (index: TextIndexImage) => [...packedBuffers(index.terms), ...packedBuffers(index.ids), ...[index.postingEnds, index.numbers, index.counts, index.lengths].map((array) => array.buffer as ArrayBuffer)];
  const arrays = [image.sectionCounts, image.noAnchor, image.tieBreaks].map((array) => array.buffer as ArrayBuffer);
  return [...text(image.pages), ...text(image.sections), ...packedBuffers(image.pageData), ...packedBuffers(image.sectionData), ...arrays];
}

/** Builds what a page puts in an index. Which pages are indexed is build.ts's business. */
export function indexedPage(page: Pick<PageEntry, 'id' | 'title' | 'description' | 'path'>, markdown: string): IndexedPage {
  const sections = sectionsOf(markdown);
  return {
    document: {
      id: page.id,
      title: page.title,
      description: page.description ?? '',
      path: page.path,
      fields: [page.title, page.description ?? '', sections.map((section) => section.heading).join('\n'), sections.map((section) => section.text).join('\n')].map(countTerms),
    },
    sections: sections.map((section, position) => ({
      id: sectionId(page.id, position),
      anchor: section.anchor,
      heading: section.heading,
      excerpt: excerptOf(section.prose),
      fields: [section.heading, section.text].map(countTerms),
    })),
  };
}

const sectionId = (pageId: string, position: number) => `${pageId}\u0000${position}`;
/** Orders strings by code unit: the same order on every machine, unlike localeCompare. */
export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A 32-bit FNV-1a hash of a text: a tie-break between pages that score the same, from their paths alone. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The first `count` items of a list in the order of `compare`, without sorting all of it when only a few
 * are wanted (a common word matches most pages; a page of results shows 50).
 */
function firstInOrder<T>(items: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
  if (count * 8 >= items.length) return [...items].sort(compare).slice(0, count);
  const best: T[] = [];
  for (const item of items) {
    if (best.length === count && compare(item, best[count - 1]) >= 0) continue;
    // Binary search for its place among the best so far.
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(item, best[middle]) < 0) high = middle;
      else low = middle + 1;
    }
    best.splice(low, 0, item);
    if (best.length > count) best.pop();
  }
  return best;
}

/** The search index of one revision (see the module comment). */
export class SearchIndex {
  /** The revision it indexes now: it changes when the index is handed over to a newer revision. */
  revisionId: string;
  /** The computed pages it holds, by page id. */
  private readonly computed = new Map<string, ComputedEntry>();
  private readonly pages: TextIndex<PageData>;
  private readonly sections: TextIndex<SectionData>;
  /**
   * Per page number, the hash of its path: ties in score are broken by it (then by the path itself), so
   * ranking a common word compares numbers in one dense array instead of reading thousands of scattered
   * page records.
   */
  private readonly tieBreaks: number[];

  /** An empty index of a revision, or one of given parts (restore). */
  constructor(revisionId: string, parts?: { pages: TextIndex<PageData>; sections: TextIndex<SectionData>; tieBreaks: number[] }) {
    this.revisionId = revisionId;
    this.pages = parts?.pages ?? new TextIndex<PageData>(PAGE_BOOSTS, PROMINENT_PAGE_FIELDS);
    // The sections are scored with the pages index's expansions: their index keeps no dictionary of terms.
    this.sections = parts?.sections ?? new TextIndex<SectionData>(SECTION_BOOSTS, new Set(), false);
    this.tieBreaks = parts?.tieBreaks ?? [];
  }

  /** The index as plain data (see SearchIndexImage); only an index built without removals has one. */
  image(): SearchIndexImage {
    const pageData = new StringPacker();
    const sectionCounts = new Uint32Array(this.pages.size);
    for (let number = 0; number < this.pages.size; number++) {
      const { title, path, sections } = this.pages.dataOf(number);
      pageData.add(title);
      pageData.add(path);
      sectionCounts[number] = sections;
    }
    const sectionData = new StringPacker();
    const noAnchor = new Uint8Array(this.sections.size);
    for (let number = 0; number < this.sections.size; number++) {
      const { anchor, heading, excerpt } = this.sections.dataOf(number);
      sectionData.add(anchor ?? '');
      sectionData.add(heading);
      sectionData.add(excerpt);
      noAnchor[number] = anchor === null ? 1 : 0;
    }
    return {
      revisionId: this.revisionId,
      pages: this.pages.image(),
      sections: this.sections.image(),
      pageData: pageData.finish(),
      sectionCounts,
      sectionData: sectionData.finish(),
      noAnchor,
      tieBreaks: Uint32Array.from(this.tieBreaks),
    };
  }

  /** The index an image was made of, made in slices (TextIndex.restore): it holds and ranks exactly what the original did. */
  static async restore(image: SearchIndexImage): Promise<SearchIndex> {
    const { pageData, sectionData, noAnchor } = image;
    const pages = await TextIndex.restore<PageData>(PAGE_BOOSTS, PROMINENT_PAGE_FIELDS, true, image.pages, (number) => ({
      title: unpack(pageData, 2 * number),
      path: unpack(pageData, 2 * number + 1),
      sections: image.sectionCounts[number],
    }));
    const sections = await TextIndex.restore<SectionData>(SECTION_BOOSTS, new Set(), false, image.sections, (number) => ({
      anchor: noAnchor[number] === 1 ? null : unpack(sectionData, 3 * number),
      heading: unpack(sectionData, 3 * number + 1),
      excerpt: unpack(sectionData, 3 * number + 2),
    }));
    return new SearchIndex(image.revisionId, { pages, sections, tieBreaks: Array.from(image.tieBreaks) });
  }

  /** How many pages it holds. */
  get size(): number {
    return this.pages.size;
  }

  /** Whether it holds a page. */
  has(pageId: string): boolean {
    return this.pages.numberOf(pageId) !== undefined;
  }

  /** Adds a page (not yet in it). */
  add(page: IndexedPage): void {
    drain(this.adding(page));
  }

  /**
   * Adds a page as `add` does, in steps of a few hundred terms (TextIndex.adding), for a caller that pauses
   * between them while no search can reach the index (build.ts, applyUpdate).
   */
  *adding(page: IndexedPage): Generator<void, void, undefined> {
    const { document } = page;
    yield* this.pages.adding(document.id, document.fields, { title: document.title, path: document.path, sections: page.sections.length });
    this.tieBreaks[this.pages.numberOf(document.id)!] = hashText(document.path);
    for (const section of page.sections) {
      yield* this.sections.adding(section.id, section.fields, { anchor: section.anchor, heading: section.heading, excerpt: section.excerpt });
    }
  }

  /** Removes a page, given exactly as it was added (anything else throws). */
  remove(page: IndexedPage): void {
    drain(this.removing(page));
  }

  /** Removes a page as `remove` does, in steps (see `adding`). */
  *removing(page: IndexedPage): Generator<void, void, undefined> {
    yield* this.pages.removing(page.document.id, page.document.fields);
    for (const section of page.sections) yield* this.sections.removing(section.id, section.fields);
    this.computed.delete(page.document.id);
  }

  /** Adds a computed page with the content it expands into (see ComputedEntry). */
  addComputed(entry: ComputedEntry): void {
    drain(this.addingComputed(entry));
  }

  /** Adds a computed page as `addComputed` does, in steps (see `adding`). */
  *addingComputed(entry: ComputedEntry): Generator<void, void, undefined> {
    yield* this.adding(entry.page);
    this.computed.set(entry.page.document.id, entry);
  }

  /** The computed pages it holds, with what they are made of. */
  computedPages(): ComputedEntry[] {
    return [...this.computed.values()];
  }

  /** What a computed page it holds is made of. */
  computedEntry(pageId: string): ComputedEntry | undefined {
    return this.computed.get(pageId);
  }

  /**
   * Replaces a computed page's content, if it is still made of `expected` (another search may have
   * replaced it, or a newer revision taken it out, while the new content was generated).
   */
  replaceComputed(expected: ComputedEntry, next: ComputedEntry): void {
    if (this.computed.get(expected.page.document.id) !== expected) return;
    this.remove(expected.page);
    this.addComputed(next);
  }

  /**
   * Searches: the pages that contain most of the words (requiredWords), how many they are, and the hits
   * at `offset` to `offset + limit` in rank order: more words first, then more of them in the title or a
   * heading (a title or heading match ranks above a body match), then a higher score (BM25 over title,
   * description, headings and body), then by a hash of the path and by the path (unique in a revision), so the
   * order is total and the same for the same content. Each hit has the sections that contain any of the
   * words (bestSections).
   */
  search(words: Words, offset: number, limit: number): { count: number; hits: Hit[]; terms: string[] } {
    if (words.length === 0) return { count: 0, hits: [], terms: [] };
    const expansions = this.pages.expand(words);
    const required = requiredWords(words.length);
    const { touched, scores, masks, prominentMasks } = this.pages.scoreAll(expansions);
    const matched = new Uint8Array(scores.length);
    const prominent = new Uint8Array(scores.length);
    const matching: number[] = [];
    for (const number of touched) {
      matched[number] = wordsIn(masks[number]);
      prominent[number] = wordsIn(prominentMasks[number]);
      if (matched[number] >= required) matching.push(number);
    }
    const { tieBreaks } = this;
    const path = (number: number) => this.pages.dataOf(number).path;
    const ranked = firstInOrder(
      matching,
      offset + limit,
      (a, b) => matched[b] - matched[a] || prominent[b] - prominent[a] || scores[b] - scores[a] || tieBreaks[a] - tieBreaks[b] || compareText(path(a), path(b)),
    );
    const hits = ranked.slice(offset).map((number) => {
      const { title, path, sections } = this.pages.dataOf(number);
      const id = this.pages.idOf(number);
      return {
        id,
        title,
        path,
        matched: matched[number],
        prominent: prominent[number],
        score: scores[number],
        sections: this.bestSections(expansions, id, sections),
      };
    });
    // The terms the query matched (its words, and the longer words and near spellings they expanded to): what a hit marks.
    return { count: matching.length, hits, terms: expansions.map((expansion) => expansion.term) };
  }

  /** The sections of a page that contain any of the words: more words first, then a higher score, then in page order. */
  private bestSections(expansions: readonly Expansion[], pageId: string, count: number): SectionMatch[] {
    const numbers: number[] = [];
    for (let position = 0; position < count; position++) numbers.push(this.sections.numberOf(sectionId(pageId, position))!);
    const { scores, masks } = this.sections.scoreSome(expansions, numbers);
    // Positions of the sections that matched a word, best first; ties keep page order.
    const found = numbers.map((_, position) => position).filter((position) => masks[position] !== 0);
    return found
      .sort((a, b) => wordsIn(masks[b]) - wordsIn(masks[a]) || scores[b] - scores[a] || a - b)
      .slice(0, MAX_SECTIONS_PER_HIT)
      .map((position) => {
        const { anchor, heading, excerpt } = this.sections.dataOf(numbers[position]);
        return { anchor, heading, excerpt };
      });
  }
}
