/**
 * Values remembered by key, at most `limit` of them: past that the memory starts again. For what a judge of millions
 * of answers works out from a few thousand distinct texts (a query, a header's value), each cheap to work out again.
 */
export class BoundedMemo<Key, Value> {
  private readonly values = new Map<Key, Value>();

  constructor(private readonly limit: number) {}

  get(key: Key): Value | undefined {
    return this.values.get(key);
  }

  set(key: Key, value: Value): void {
    if (this.values.size >= this.limit) this.values.clear();
    this.values.set(key, value);
  }
}
