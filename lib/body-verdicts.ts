/**
 * What a body's text earns against the contract, remembered by that text: the same bytes answered by the
 * same operation with the same status always earn the same verdict. Replay meets the same answers again
 * and again (a pet fetched once more, the same page listed, the same refusal), and parsing and validating
 * is most of what checking an answer costs. Bounded by the characters it holds; the oldest go first.
 */
import type { OperationId } from './contract.ts';
import type { JsonBody, MemoryOwned } from './json-body.ts';
import { TextMemory } from './text-memory.ts';
import type { Violation } from './violation.ts';

export interface BodyVerdict {
  /** The body was empty (only its absence is judged, not its Content-Type). */
  empty: boolean;
  problems: readonly Violation[];
}

/** Bodies longer than this are judged each time: rare, and each would crowd out many short ones. */
const MAX_REMEMBERED_LENGTH = 16_384;

/**
 * What one text earned, by operation and status. The first asked is kept at hand: a text is nearly always the answer
 * of one operation with one status, and the judge asks for it once per answer.
 */
class TextVerdicts implements MemoryOwned {
  private firstOperation: OperationId | undefined;
  private firstStatus: number | undefined;
  private first: BodyVerdict | undefined;
  private readonly others = new Map<OperationId, Map<number, BodyVerdict>>();

  /** `owner`: the memory that holds these (a body carries those of one memory at a time). */
  constructor(readonly owner: BodyVerdicts) {}

  known(operation: OperationId, status: number): BodyVerdict | undefined {
    if (operation === this.firstOperation && status === this.firstStatus) return this.first;
    return this.others.get(operation)?.get(status);
  }

  remember(operation: OperationId, status: number, verdict: BodyVerdict): void {
    if (this.first === undefined || (operation === this.firstOperation && status === this.firstStatus)) {
      this.firstOperation = operation;
      this.firstStatus = status;
      this.first = verdict;
      return;
    }
    let byStatus = this.others.get(operation);
    if (!byStatus) this.others.set(operation, (byStatus = new Map()));
    byStatus.set(status, verdict);
  }
}

/**
 * Looked up as `known`, then, when it was not, judged by the caller and `remember`ed: a judge handed in would be a
 * closure made per answer, which a judge of millions of answers pays for.
 */
export class BodyVerdicts {
  /**
   * By the text itself (a body's own string hashes once). A caller that shares one JsonBody among the answers of one
   * text (the judge) finds them on the body (JsonBody.verdicts) without hashing the text again.
   */
  private readonly byText: TextMemory<TextVerdicts>;

  constructor(maxCharacters: number) {
    this.byText = new TextMemory(maxCharacters, MAX_REMEMBERED_LENGTH);
  }

  known(operation: OperationId, status: number, body: JsonBody): BodyVerdict | undefined {
    let verdicts = this.carried(body);
    if (!verdicts) {
      verdicts = this.byText.get(body.text);
      if (verdicts) body.verdicts = verdicts;
    }
    return verdicts?.known(operation, status);
  }

  remember(operation: OperationId, status: number, body: JsonBody, verdict: BodyVerdict): void {
    let verdicts = this.carried(body) ?? this.byText.get(body.text);
    if (!verdicts) {
      verdicts = new TextVerdicts(this);
      this.byText.set(body.text, verdicts);
    }
    body.verdicts = verdicts;
    verdicts.remember(operation, status, verdict);
  }

  /** The verdicts the body carries, when this memory put them there. */
  private carried(body: JsonBody): TextVerdicts | undefined {
    const { verdicts } = body;
    // Only this memory puts its TextVerdicts there with itself as their owner.
    return verdicts?.owner === this ? (verdicts as TextVerdicts) : undefined;
  }
}
