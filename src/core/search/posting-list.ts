/**
 * The documents one term occurs in (in one field), with how often: document numbers in ascending order
 * in one typed array, counts in another. About 8 bytes a posting, where a Map entry costs several times
 * that, and scoring a common term reads two dense arrays instead of walking a hash table. Adding a
 * document numbered above every other (the case when an index is built) appends; other adds and removes
 * shift the tail, which costs the term's document frequency, a few microseconds at 10,000 pages.
 */
export class PostingList {
  /**
   * Its documents and counts, once it has held two. Until then its one document is kept in `oneNumber` and
   * `oneCount`, without arrays: most terms of a long page occur in that page alone, and two typed arrays a
   * term were most of what adding such a page (22,000 new terms for 1 MiB of prose) left to collect.
   */
  private numbers: Int32Array | undefined;
  private counts: Uint32Array | undefined;
  private oneNumber = 0;
  private oneCount = 0;
  /** How many documents contain the term: its document frequency. */
  size = 0;

  /** Where a document is in the arrays (its index), or -(insertion point) - 1 when it is absent. */
  private find(numbers: Int32Array, number: number): number {
    if (this.size > 0 && numbers[this.size - 1] < number) return -this.size - 1;
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = numbers[middle];
      if (at < number) low = middle + 1;
      else if (at > number) high = middle - 1;
      else return middle;
    }
    return -low - 1;
  }

  /** How often the term occurs in a document (undefined: not at all). */
  get(number: number): number | undefined {
    if (!this.numbers) return this.size === 1 && this.oneNumber === number ? this.oneCount : undefined;
    const index = this.find(this.numbers, number);
    return index >= 0 ? this.counts![index] : undefined;
  }

  /** Records how often the term occurs in a document. */
  set(number: number, count: number): void {
    if (!this.numbers) {
      if (this.size === 0 || this.oneNumber === number) {
        this.oneNumber = number;
        this.oneCount = count;
        this.size = 1;
        return;
      }
      // A second document: the list moves into arrays.
      this.numbers = Int32Array.of(this.oneNumber, 0);
      this.counts = Uint32Array.of(this.oneCount, 0);
    }
    let index = this.find(this.numbers, number);
    if (index >= 0) {
      this.counts![index] = count;
      return;
    }
    index = -index - 1;
    if (this.size === this.numbers.length) {
      const numbers = new Int32Array(Math.max(2, this.size * 2));
      const counts = new Uint32Array(Math.max(2, this.size * 2));
      numbers.set(this.numbers);
      counts.set(this.counts!);
      this.numbers = numbers;
      this.counts = counts;
    }
    this.numbers.copyWithin(index + 1, index, this.size);
    this.counts!.copyWithin(index + 1, index, this.size);
    this.numbers[index] = number;
    this.counts![index] = count;
    this.size++;
  }

  /** Forgets a document (nothing happens when it is absent). */
  delete(number: number): void {
    if (!this.numbers) {
      if (this.size === 1 && this.oneNumber === number) this.size = 0;
      return;
    }
    const index = this.find(this.numbers, number);
    if (index < 0) return;
    this.numbers.copyWithin(index, index + 1, this.size);
    this.counts!.copyWithin(index, index + 1, this.size);
    this.size--;
  }

  /** Its documents and counts, as views of its arrays (for TextIndex.image; not to be changed). */
  arrays(): { numbers: Int32Array; counts: Uint32Array } {
    if (!this.numbers) return this.size === 1 ? { numbers: Int32Array.of(this.oneNumber), counts: Uint32Array.of(this.oneCount) } : { numbers: new Int32Array(0), counts: new Uint32Array(0) };
    return { numbers: this.numbers.subarray(0, this.size), counts: this.counts!.subarray(0, this.size) };
  }

  /** A list over given arrays (ascending document numbers and their counts), which it takes over. */
  static of(numbers: Int32Array, counts: Uint32Array): PostingList {
    const list = new PostingList();
    list.numbers = numbers;
    list.counts = counts;
    list.size = numbers.length;
    return list;
  }

  /** Calls `visit(count, number)` for every document, in ascending number order. */
  forEach(visit: (count: number, number: number) => void): void {
    const { numbers, counts, size } = this;
    if (!numbers) {
      if (size === 1) visit(this.oneCount, this.oneNumber);
      return;
    }
    for (let index = 0; index < size; index++) visit(counts![index], numbers[index]);
  }
}
