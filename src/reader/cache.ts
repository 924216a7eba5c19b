/**
 * Rendered documents by what they show (the core's fingerprint: the revision, the layout, the page and its
 * source), so that a page is rendered once per revision, not per request; and the compressed bytes of an
 * answer by its ETag (adapters/compression.ts), so that it is compressed once. Bounded by a total weight
 * (an entry weighs 1 unless `weigh` says otherwise, e.g. its bytes), least recently used out first.
 */
export class RenderCache<T> {
  private readonly entries = new Map<string, T>();
  private total = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: T) => number = () => 1,
  ) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.delete(key);
    // An entry heavier than the whole cache would only push everything else out, then itself.
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.entries.set(key, value);
    this.total += weight;
    for (const oldest of this.entries.keys()) {
      if (this.total <= this.capacity) break;
      this.delete(oldest);
    }
  }

  private delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.total -= this.weigh(value);
  }
}
