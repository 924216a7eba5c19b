import SearchableMap from 'minisearch/SearchableMap';
import { packStrings, packedCount, StringPacker, unpack, type PackedStrings } from '../packed-strings.js';
import { pause } from '../pause.js';
import { PostingList } from './posting-list.js';
import { termsOf, type Words } from './words.js';

/**
 * An inverted index of documents with a few weighted text fields, ranked with BM25 (the formula and the
 * parameters MiniSearch uses), updated one document at a time. Its term dictionary is MiniSearch's
 * SearchableMap, a radix tree that finds the terms starting with a prefix or within an edit distance.
 *
 * Why not MiniSearch's own index and `search`: it allocates a result object (with a per-term `match`
 * object) for every matching document, which took 36-80 ms for a query of two words that 10,000 pages
 * contain (measured); this scores compact posting lists (posting-list.ts) into typed arrays, ~0.5 ms.
 *
 * Every statistic BM25 reads is exact (document frequency = the size of a posting list, average field
 * length = an integer sum over a count), and each document's contributions are added in one canonical
 * order (word, then term, then field), so an index updated document by document scores every document
 * bit for bit as an index built from scratch does.
 */

/** BM25 parameters (MiniSearch's defaults): term-frequency saturation, length normalization, and a floor for any match. */
const K = 1.2;
const B = 0.7;
const FLOOR = 0.5;

/** How much a term found as a longer word or with a typo counts, relative to the word itself (MiniSearch's weights). */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
/** The most dictionary terms one query word expands to by prefix, and by typo: the closest first. */
const MAX_PREFIX_TERMS = 64;
const MAX_FUZZY_TERMS = 32;

/** A term a query word matches, with how much it counts. */
export interface Expansion {
  /** The position of the query word (bit `word` of a match mask). */
  readonly word: number;
  readonly term: string;
  readonly weight: number;
}

/** Where a term occurs: per field, its posting list (absent: nowhere in that field). */
type Postings = (PostingList | undefined)[];

/** A document: its id and what the caller keeps with it. */
interface Slot<D> {
  readonly id: string;
  readonly data: D;
}

/** BM25 of a term found `count` times in a field of `length` terms (average `average`), scaled (see factors). */
function termScore(scale: number, count: number, length: number, average: number): number {
  return scale * (FLOOR + (count * (K + 1)) / (count + K * (1 - B + (B * length) / average)));
}

/** The scores of a query over the documents it touched. */
export interface Scored {
  /** The document numbers touched, each once. */
  readonly touched: readonly number[];
  /** BM25 per document number. */
  readonly scores: Float64Array;
  /** Per document number, bit `i` set when query word `i` matched. */
  readonly masks: Uint32Array;
  /** The same, for matches in the prominent fields only (see the constructor). */
  readonly prominentMasks: Uint32Array;
}

/** The number of bits set in a 32-bit mask: how many words a document matched. */
export function wordsIn(mask: number): number {
  let bits = mask >>> 0;
  let count = 0;
  while (bits !== 0) {
    bits &= bits - 1;
    count++;
  }
  return count;
}

/**
 * A field's text as the index takes it in: its distinct terms with how often each occurs, and how many terms
 * it has. Counting tokenizes the text, a few hundred ms for 1 MiB, so it is done where the text is read (a
 * job for a long page: build-job.ts), and the main thread only merges the counts into the index. Plain data
 * that crosses threads cheaply: one string and one typed array, not a string per term.
 */
export interface CountedTerms {
  /** Its distinct terms, joined by new lines (a term never holds white space: words.ts splits at it). */
  readonly terms: string;
  /** How often each term occurs, in the order of `terms`. */
  readonly counts: Uint32Array;
  /** How many terms it has, repeats included. */
  readonly length: number;
}

/** Counts the terms of a text (see CountedTerms). */
export function countTerms(text: string): CountedTerms {
  const terms = termsOf(text);
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { terms: [...counts.keys()].join('\n'), counts: Uint32Array.from(counts.values()), length: terms.length };
}

/** How many terms `adding` and `removing` take in or out between two steps: some hundreds of µs of work. */
const TERMS_PER_STEP = 512;

/** Runs a generator of steps to its end, in one go. */
export function drain(steps: Iterator<void>): void {
  while (!steps.next().done);
}

/** The distinct terms of counted text, in the order of its counts. */
const termsIn = (counted: CountedTerms): string[] => (counted.counts.length === 0 ? [] : counted.terms.split('\n'));

/**
 * A text index as plain data (TextIndex.image), for the index built in a worker thread: its typed arrays
 * and packed strings move back to the main thread instead of being copied, and TextIndex.restore makes the
 * same index of them there in slices, without tokenizing any text again.
 */
export interface TextIndexImage {
  /** Every term, in the order the index met them. */
  readonly terms: PackedStrings;
  /** Per term, then per field: where its posting list ends in `numbers` and `counts` (it starts where the one before ends). */
  readonly postingEnds: Uint32Array;
  readonly numbers: Int32Array;
  readonly counts: Uint32Array;
  /** The documents' ids, by number. */
  readonly ids: PackedStrings;
  /** Per field, then per document number: its number of terms. */
  readonly lengths: Uint32Array;
  /** Per field, the total number of terms. */
  readonly totals: readonly number[];
}

/**
 * How many terms or documents TextIndex.restore makes between two pauses: a few milliseconds' work, garbage
 * collection included (at 1,000 a slice took 10-30 ms on a busy machine, half of it collecting).
 */
const RESTORED_PER_SLICE = 250;

/** The inverted index (see the module comment); `D` is what a document carries for its caller. */
export class TextIndex<D> {
  /** Term → postings: every lookup and update of a known term goes through this hash map. */
  private readonly postings = new Map<string, Postings>();
  /**
   * The same terms in a radix tree, only to find terms by prefix or typo (expand): touched when a term comes
   * or goes, a large part of adding a long document's new terms. Only an index that expands words has one.
   */
  private readonly dictionary: SearchableMap<true> | undefined;
  private readonly slots: (Slot<D> | undefined)[] = [];
  private readonly free: number[] = [];
  private readonly numbers = new Map<string, number>();
  /** Per field, the total number of terms of every document. */
  private readonly totals: number[];
  /** Per field, each document's number of terms, by document number. */
  private readonly lengths: number[][];

  constructor(
    /** The weight of each field, in the order documents give their fields. */
    private readonly boosts: readonly number[],
    /** The fields whose matches `scoreAll` also reports apart (`prominentMasks`): a title, headings. */
    private readonly prominent: ReadonlySet<number> = new Set(),
    /** Whether `expand` finds terms by prefix and typo in it; an index scored only with another's expansions need not. */
    expands = true,
  ) {
    this.dictionary = expands ? new SearchableMap<true>() : undefined;
    this.totals = boosts.map(() => 0);
    this.lengths = boosts.map(() => []);
  }

  /** How many documents it holds. */
  get size(): number {
    return this.numbers.size;
  }

  /** The number of a document by id. */
  numberOf(id: string): number | undefined {
    return this.numbers.get(id);
  }

  /** The id of a document, by number. */
  idOf(number: number): string {
    return this.slots[number]!.id;
  }

  /** What a document carries, by number. */
  dataOf(number: number): D {
    return this.slots[number]!.data;
  }

  /** Adds a document (its id must be new) with the counted terms of each field (countTerms). */
  add(id: string, fields: readonly CountedTerms[], data: D): void {
    drain(this.adding(id, fields, data));
  }

  /**
   * Adds a document as `add` does, in steps of TERMS_PER_STEP terms: the caller may pause between two, while
   * no search can reach the index (build.ts, applyUpdate), since a long page has tens of thousands of terms.
   */
  *adding(id: string, fields: readonly CountedTerms[], data: D): Generator<void, void, undefined> {
    if (this.numbers.has(id)) throw new Error(`text index: ${id} is already in it`);
    const number = this.free.pop() ?? this.slots.length;
    let done = 0;
    for (let field = 0; field < fields.length; field++) {
      const counted = fields[field];
      this.lengths[field][number] = counted.length;
      this.totals[field] += counted.length;
      const terms = termsIn(counted);
      for (let at = 0; at < terms.length; at++) {
        const term = terms[at];
        let postings = this.postings.get(term);
        if (!postings) {
          this.postings.set(term, (postings = []));
          this.dictionary?.set(term, true);
        }
        (postings[field] ??= new PostingList()).set(number, counted.counts[at]);
        if (++done % TERMS_PER_STEP === 0) yield;
      }
    }
    this.slots[number] = { id, data };
    this.numbers.set(id, number);
  }

  /**
   * Removes a document given with the same counted terms it was added with; anything else throws, since the
   * index would no longer match its documents.
   */
  remove(id: string, fields: readonly CountedTerms[]): void {
    drain(this.removing(id, fields));
  }

  /** Removes a document as `remove` does, in steps (see `adding`). */
  *removing(id: string, fields: readonly CountedTerms[]): Generator<void, void, undefined> {
    const number = this.numbers.get(id);
    if (number === undefined) throw new Error(`text index: ${id} is not in it`);
    let done = 0;
    for (let field = 0; field < fields.length; field++) {
      const counted = fields[field];
      if (counted.length !== this.lengths[field][number]) throw new Error(`text index: ${id} changed before its removal`);
      this.totals[field] -= counted.length;
      const terms = termsIn(counted);
      for (let at = 0; at < terms.length; at++) {
        const term = terms[at];
        const postings = this.postings.get(term);
        const list = postings?.[field];
        if (list?.get(number) !== counted.counts[at]) throw new Error(`text index: ${id} changed before its removal`);
        list.delete(number);
        if (list.size === 0) postings![field] = undefined;
        // A term no document has any more leaves the dictionary: prefixes and typos must not find it.
        if (postings!.every((entry) => entry === undefined)) {
          this.postings.delete(term);
          this.dictionary?.delete(term);
        }
        if (++done % TERMS_PER_STEP === 0) yield;
      }
    }
    this.slots[number] = undefined;
    this.free.push(number);
    this.numbers.delete(id);
  }

  /** The index as plain data (TextIndexImage); only an index built without removals has one. */
  image(): TextIndexImage {
    if (this.free.length > 0) throw new Error('text index: an index with removals has no image');
    const fields = this.boosts.length;
    let total = 0;
    for (const lists of this.postings.values()) for (const list of lists) total += list?.size ?? 0;
    const terms = new StringPacker();
    const postingEnds = new Uint32Array(this.postings.size * fields);
    const numbers = new Int32Array(total);
    const counts = new Uint32Array(total);
    let at = 0;
    let term = 0;
    for (const [text, lists] of this.postings) {
      terms.add(text);
      for (let field = 0; field < fields; field++) {
        const list = lists[field];
        if (list) {
          const arrays = list.arrays();
          numbers.set(arrays.numbers, at);
          counts.set(arrays.counts, at);
          at += list.size;
        }
        postingEnds[term * fields + field] = at;
      }
      term++;
    }
    const documents = this.slots.length;
    const lengths = new Uint32Array(fields * documents);
    this.lengths.forEach((perDocument, field) => lengths.set(perDocument, field * documents));
    return { terms: terms.finish(), postingEnds, numbers, counts, ids: packStrings(this.slots.map((slot) => slot!.id)), lengths, totals: [...this.totals] };
  }

  /**
   * The index an image was made of, with what each document carries (`dataOf`, by number), made in slices
   * with pauses between them; its posting lists are views of the image's arrays.
   */
  static async restore<D>(boosts: readonly number[], prominent: ReadonlySet<number>, expands: boolean, image: TextIndexImage, dataOf: (number: number) => D): Promise<TextIndex<D>> {
    const index = new TextIndex<D>(boosts, prominent, expands);
    const fields = boosts.length;
    let start = 0;
    for (let term = 0; term < packedCount(image.terms); term++) {
      if (term % RESTORED_PER_SLICE === RESTORED_PER_SLICE - 1) await pause();
      const text = unpack(image.terms, term);
      // Absent fields stay holes, as `add` leaves them.
      const lists: Postings = [];
      for (let field = 0; field < fields; field++) {
        const end = image.postingEnds[term * fields + field];
        if (end > start) lists[field] = PostingList.of(image.numbers.subarray(start, end), image.counts.subarray(start, end));
        start = end;
      }
      index.postings.set(text, lists);
      index.dictionary?.set(text, true);
    }
    const documents = packedCount(image.ids);
    for (let number = 0; number < documents; number++) {
      if (number % RESTORED_PER_SLICE === RESTORED_PER_SLICE - 1) await pause();
      const id = unpack(image.ids, number);
      index.slots[number] = { id, data: dataOf(number) };
      index.numbers.set(id, number);
    }
    for (let field = 0; field < fields; field++) {
      index.lengths[field] = Array.from(image.lengths.subarray(field * documents, (field + 1) * documents));
      index.totals[field] = image.totals[field];
    }
    return index;
  }

  /**
   * The terms of this index that each word matches: the word itself; for the last word (3 letters or
   * more) the longer terms it starts; for words of 5 letters or more the terms one typo away (two from 10
   * letters). Sorted by word then term, the order scores are summed in.
   */
  expand(words: Words): Expansion[] {
    const { dictionary } = this;
    if (!dictionary) throw new Error('text index: this index does not expand words');
    const out: Expansion[] = [];
    words.forEach((word, index) => {
      const found = new Map<string, number>();
      if (this.postings.has(word)) found.set(word, 1);
      if (index === words.length - 1 && word.length >= 3) {
        const longer = [...dictionary.atPrefix(word).keys()].filter((term) => term !== word);
        longer.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
        for (const term of longer.slice(0, MAX_PREFIX_TERMS)) {
          found.set(term, (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - word.length)));
        }
      }
      const typos = word.length >= 10 ? 2 : word.length >= 5 ? 1 : 0;
      if (typos > 0) {
        const near = [...dictionary.fuzzyGet(word, typos)].filter(([term, [, distance]]) => distance > 0 && !found.has(term));
        near.sort(([a, [, da]], [b, [, db]]) => da - db || (a < b ? -1 : 1));
        for (const [term, [, distance]] of near.slice(0, MAX_FUZZY_TERMS)) found.set(term, (FUZZY_WEIGHT * term.length) / (term.length + distance));
      }
      const terms = [...found.keys()].sort();
      for (const term of terms) out.push({ word: index, term, weight: found.get(term)! });
    });
    return out;
  }

  /**
   * What BM25 needs of one term in one field, besides each document's count and length: the field's
   * boost times the query term's weight times the term's rarity, and the field's average length.
   */
  private factors(field: number, weight: number, documentFrequency: number): { scale: number; average: number } {
    const documents = this.numbers.size;
    const rarity = Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
    return { scale: weight * this.boosts[field] * rarity, average: this.totals[field] / documents };
  }

  /** Scores every document that contains any of the expansions. */
  scoreAll(expansions: readonly Expansion[]): Scored {
    const scores = new Float64Array(this.slots.length);
    const masks = new Uint32Array(this.slots.length);
    const prominentMasks = new Uint32Array(this.slots.length);
    const touched: number[] = [];
    for (const { word, term, weight } of expansions) {
      const postings = this.postings.get(term);
      if (!postings) continue;
      const bit = 1 << word;
      postings.forEach((list, field) => {
        if (!list) return;
        const { scale, average } = this.factors(field, weight, list.size);
        const lengths = this.lengths[field];
        const prominent = this.prominent.has(field);
        list.forEach((count, number) => {
          if (masks[number] === 0) touched.push(number);
          scores[number] += termScore(scale, count, lengths[number], average);
          masks[number] |= bit;
          if (prominent) prominentMasks[number] |= bit;
        });
      });
    }
    return { touched, scores, masks, prominentMasks };
  }

  /**
   * Scores a few documents only (by number), without reading whole posting lists: entry `i` of the
   * result's arrays is for `numbers[i]` (a mask of 0: no word matched).
   */
  scoreSome(expansions: readonly Expansion[], numbers: readonly number[]): { scores: Float64Array; masks: Uint32Array } {
    const scores = new Float64Array(numbers.length);
    const masks = new Uint32Array(numbers.length);
    const postings = expansions.map(({ term }) => this.postings.get(term));
    numbers.forEach((number, at) => {
      expansions.forEach(({ word, weight }, index) => {
        postings[index]?.forEach((list, field) => {
          const count = list?.get(number);
          if (count === undefined) return;
          const { scale, average } = this.factors(field, weight, list!.size);
          scores[at] += termScore(scale, count, this.lengths[field][number], average);
          masks[at] |= 1 << word;
        });
      });
    });
    return { scores, masks };
  }
}
