/**
 * What a body's text earns against the contract, remembered by that text: the same bytes answered by the
 * same operation with the same status always earn the same verdict. Replay meets the same answers again
 * and again (a pet fetched once more, the same page listed, the same refusal), and parsing and validating
 * is most of what checking an answer costs. Bounded by the characters it holds; the oldest go first.
 */
import type { OperationId } from './contract.ts';
import type { JsonBody } from './json-body.ts';
import { TextMemory } from './text-memory.ts';
import type { Violation } from './violation.ts';

export interface BodyVerdict {
  /** The body was empty (only its absence is judged, not its Content-Type). */
  empty: boolean;
  problems: readonly Violation[];
}

/** Bodies longer than this are judged each time: rare, and each would crowd out many short ones. */
const MAX_REMEMBERED_LENGTH = 16_384;

type ByOperation = Map<OperationId, Map<number, BodyVerdict>>;

/**
 * Looked up as `known`, then, when it was not, judged by the caller and `remember`ed: a judge handed in would be a
 * closure made per answer, which a judge of millions of answers pays for.
 */
export class BodyVerdicts {
  /** By the text itself (a body's own string hashes once), then operation and status. */
  private readonly byText: TextMemory<ByOperation>;
  /**
   * The same, by the JsonBody met: a caller that shares one JsonBody among the answers of one text (the judge) finds
   * its verdicts without hashing the text again.
   */
  private readonly byBody = new WeakMap<JsonBody, ByOperation>();

  constructor(maxCharacters: number) {
    this.byText = new TextMemory(maxCharacters, MAX_REMEMBERED_LENGTH);
  }

  known(operation: OperationId, status: number, body: JsonBody): BodyVerdict | undefined {
    let byOperation = this.byBody.get(body);
    if (!byOperation) {
      byOperation = this.byText.get(body.text);
      if (byOperation) this.byBody.set(body, byOperation);
    }
    return byOperation?.get(operation)?.get(status);
  }

  remember(operation: OperationId, status: number, body: JsonBody, verdict: BodyVerdict): void {
    let byOperation = this.byBody.get(body) ?? this.byText.get(body.text);
    if (!byOperation) {
      byOperation = new Map();
      this.byText.set(body.text, byOperation);
    }
    this.byBody.set(body, byOperation);
    let byStatus = byOperation.get(operation);
    if (!byStatus) byOperation.set(operation, (byStatus = new Map()));
    byStatus.set(status, verdict);
  }
}
