/** The parameters of one statement, numbered as they are added. */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value; returns its placeholder with a cast, e.g. `$3::text[]`. */
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
}
