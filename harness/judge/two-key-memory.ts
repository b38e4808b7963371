/**
 * Values remembered by two keys (a method, then a URL; the key a capture named, then an Authorization header), at
 * most `limit` in all: past that the memory starts again. Kept in two levels, not under the keys joined: joining would make a string per lookup, where a
 * key the judge already holds (a remembered path) is the same string each time, its hash already known.
 */
export class TwoKeyMemory<Value, First = string> {
  private readonly byFirst = new Map<First, Map<string, Value>>();
  private size = 0;

  constructor(private readonly limit: number) {}

  get(first: First, second: string): Value | undefined {
    return this.byFirst.get(first)?.get(second);
  }

  set(first: First, second: string, value: Value): void {
    let bySecond = this.byFirst.get(first);
    if (!bySecond) {
      bySecond = new Map();
      this.byFirst.set(first, bySecond);
    }
    if (!bySecond.has(second) && ++this.size > this.limit) {
      for (const values of this.byFirst.values()) values.clear();
      this.size = 1;
    }
    bySecond.set(second, value);
  }
}
