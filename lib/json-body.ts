/**
 * A body's text with its lossless JSON tree, parsed on first use and then shared: the contract check, the
 * ids a creation assigned, id remapping and the comparison with the recording all read the same tree.
 */
import { JsonSyntaxError, parseLossless, type LosslessValue } from './lossless-json.ts';

export type ParsedJson = { kind: 'empty' } | { kind: 'json'; value: LosslessValue } | { kind: 'invalid'; reason: string };

/** Something a memory keeps with a body, saying which memory: a body may meet several (body-verdicts.ts reads its own). */
export interface MemoryOwned {
  readonly owner: object;
}

export class JsonBody {
  private parsed: ParsedJson | undefined;
  /**
   * What body-verdicts.ts found this text earns, kept with the body: the judge shares one JsonBody among the answers
   * of one text, and finding its verdicts here is a field read, where a WeakMap by body took some 2% of the judging
   * thread on the bench capture.
   */
  verdicts: MemoryOwned | undefined = undefined;

  constructor(readonly text: string) {}

  get json(): ParsedJson {
    this.parsed ??= parse(this.text);
    return this.parsed;
  }

  /** The tree; undefined when the body is empty or not JSON. */
  get value(): LosslessValue | undefined {
    const json = this.json;
    return json.kind === 'json' ? json.value : undefined;
  }
}

function parse(text: string): ParsedJson {
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: parseLossless(text) };
  } catch (error) {
    return { kind: 'invalid', reason: error instanceof JsonSyntaxError ? error.message : String(error) };
  }
}
