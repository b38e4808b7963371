/**
 * Deprecation is signalled per operation, and only getPet is deprecated (VER-3): what an answer signals, and
 * whether an answer of an operation the contract keeps may carry it. The suite asks each operation on purpose;
 * the judge and replay read every answer a capture holds; both decide here.
 */
import { operation as operationById, type OperationId } from './contract.ts';
import { parseLinkHeader } from './link-header.ts';

/** The headers that carry a deprecation signal: the Deprecation field (RFC 9745), Sunset (RFC 8594) and Link. */
export const SIGNAL_HEADERS = ['deprecation', 'sunset', 'link'] as const;

/** Link relations that say the link's context is deprecated (RFC 9745) or goes away (RFC 8594). */
const DEPRECATING_RELATIONS = ['deprecation', 'sunset'];

/** The deprecation signals of an answer's headers (names in lower case): Deprecation, Sunset, and Links of a deprecating relation. */
export function deprecationSignals(headers: Readonly<Record<string, string | undefined>>): string[] {
  if (headers.deprecation === undefined && headers.sunset === undefined && headers.link === undefined) return [];
  const signals = ['deprecation', 'sunset'].filter((name) => headers[name] !== undefined).map((name) => `${name}: ${headers[name]}`);
  const parsed = headers.link === undefined ? undefined : parseLinkHeader(headers.link);
  for (const link of parsed && 'links' in parsed ? parsed.links : []) {
    const relations = (link.params.rel ?? '').toLowerCase().split(/\s+/);
    if (relations.some((relation) => DEPRECATING_RELATIONS.includes(relation))) signals.push(`link: <${link.target}>; rel="${link.params.rel}"`);
  }
  return signals;
}

/** The two answers that need no message, made once: nearly every answer of a capture is one of them. */
const NOT_JUDGED: Readonly<{ judged: boolean }> = { judged: false };
const NONE_MISPLACED: Readonly<{ judged: boolean }> = { judged: true };

/**
 * VER-3 on one answer: undefined when the operation is deprecated (its signals are DEP-2, -3, -4's, and none is
 * required: DEP-GAP-1), else the breach, if any, of an answer that signals a deprecation the contract does not make.
 */
export function misplacedDeprecation(operation: OperationId, status: number, headers: Readonly<Record<string, string | undefined>>): Readonly<{ judged: boolean; breach?: string }> {
  if (operationById(operation).deprecated) return NOT_JUDGED;
  const signals = deprecationSignals(headers);
  if (signals.length === 0) return NONE_MISPLACED;
  return { judged: true, breach: `${operation}, which the interface does not deprecate (only getPet is), answered ${status} with ${signals.join('; ')}` };
}
