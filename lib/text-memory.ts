/**
 * Values remembered by a text (an answer's body), bounded by the characters of the texts held: past `maxCharacters`
 * the oldest are forgotten first. A text longer than `longestText` is never kept: rare, and each would crowd out many
 * short ones.
 */
export class TextMemory<Value> {
  private readonly byText = new Map<string, Value>();
  /**
   * In the order remembered, for forgetting the oldest from `head` on: shift() on an array this long copies it whole
   * each time (a large array cannot be trimmed in place), so the forgotten are cut off in batches.
   */
  private order: string[] = [];
  private head = 0;
  private characters = 0;

  constructor(
    private readonly maxCharacters: number,
    private readonly longestText: number,
  ) {}

  get(text: string): Value | undefined {
    return text.length > this.longestText ? undefined : this.byText.get(text);
  }

  set(text: string, value: Value): void {
    if (text.length > this.longestText) return;
    if (!this.byText.has(text)) {
      this.order.push(text);
      this.characters += text.length;
    }
    this.byText.set(text, value);
    while (this.characters > this.maxCharacters) {
      const oldest = this.order[this.head++] as string;
      this.byText.delete(oldest);
      this.characters -= oldest.length;
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
