/**
 * What a body's text earns against the contract, remembered by that text: the same bytes answered by the
 * same operation with the same status always earn the same verdict. Replay meets the same answers again
 * and again (a pet fetched once more, the same page listed, the same refusal), and parsing and validating
 * is most of what checking an answer costs. Bounded by the characters it holds; the oldest go first.
 */
import type { OperationId } from './contract.ts';
import type { Violation } from './violation.ts';

export interface BodyVerdict {
  /** The body was empty (only its absence is judged, not its Content-Type). */
  empty: boolean;
  problems: readonly Violation[];
}

/** Bodies longer than this are judged each time: rare, and each would crowd out many short ones. */
const MAX_REMEMBERED_LENGTH = 16_384;

export class BodyVerdicts {
  /**
   * By operation, status, then the text itself (a body's own string hashes once; a joined key would be copied, and
   * joining the operation and status made a string per answer).
   */
  private readonly byAnswer = new Map<OperationId, Map<number, Map<string, BodyVerdict>>>();
  /**
   * In the order remembered, for forgetting the oldest from `head` on: shift() on an array this long copies
   * it whole each time (a large array cannot be trimmed in place), so the forgotten are cut off in batches.
   */
  private order: Array<[Map<string, BodyVerdict>, string]> = [];
  private head = 0;
  private characters = 0;

  constructor(private readonly maxCharacters: number) {}

  verdict(operation: OperationId, status: number, text: string, judge: () => BodyVerdict): BodyVerdict {
    if (text.length > MAX_REMEMBERED_LENGTH) return judge();
    let byStatus = this.byAnswer.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      this.byAnswer.set(operation, byStatus);
    }
    let byText = byStatus.get(status);
    if (!byText) {
      byText = new Map();
      byStatus.set(status, byText);
    }
    const known = byText.get(text);
    if (known) return known;
    const verdict = judge();
    byText.set(text, verdict);
    this.order.push([byText, text]);
    this.characters += text.length;
    while (this.characters > this.maxCharacters) {
      const [oldestByText, oldestText] = this.order[this.head++] as [Map<string, BodyVerdict>, string];
      oldestByText.delete(oldestText);
      this.characters -= oldestText.length;
    }
    if (this.head > 4096 && this.head * 2 > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
    return verdict;
  }
}
