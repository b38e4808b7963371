/**
 * The standard fields of draft-ietf-httpapi-ratelimit-headers (revisions 08 to 11): RateLimit-Policy lists the
 * quota policies (`"minute";q=60;w=60`: a quota q per window of w seconds) and RateLimit what is left of each
 * (`"minute";r=42;t=18`: r left, t seconds until that quota resets). Both are Structured Field lists (RFC 9651).
 * The spec asks only for X-RateLimit-*, so these are reported, and compared with them, never failed (RL-GAP-3).
 */
import { parseList, Token, type BareItem, type List, type Parameters } from 'structured-headers';
import { wholeNumber } from '../rate-limit-headers.ts';

export interface PolicyItem {
  name: string;
  quota: number | undefined;
  windowSeconds: number | undefined;
}

export interface LimitItem {
  name: string;
  remaining: number | undefined;
  resetSeconds: number | undefined;
}

/** Items of a Structured Field list (RFC 9651, parsed by structured-headers), or undefined when the field is not one. */
function listItems(value: string): Array<{ name: string; params: Parameters }> | undefined {
  let list: List;
  try {
    list = parseList(value);
  } catch {
    return undefined;
  }
  // An inner list names no policy; its parameters still say what they say.
  return list.map(([item, params]) => ({ name: Array.isArray(item) ? '' : nameOf(item), params }));
}

function nameOf(item: BareItem): string {
  if (typeof item === 'string') return item;
  return item instanceof Token ? item.toString() : '';
}

/** A parameter that is a whole number (an sf-integer of 0 or more), as the draft gives q, w, r and t. */
function whole(item: BareItem | undefined): number | undefined {
  return typeof item === 'number' && Number.isSafeInteger(item) && item >= 0 ? item : undefined;
}

/** The policies a RateLimit-Policy field lists, or undefined when it is not a Structured Field list. */
export function parsePolicies(value: string): PolicyItem[] | undefined {
  return listItems(value)?.map(({ name, params }) => ({ name, quota: whole(params.get('q')), windowSeconds: whole(params.get('w')) }));
}

/** What a RateLimit field says is left of each policy, or undefined when it is not a Structured Field list. */
export function parseLimits(value: string): LimitItem[] | undefined {
  return listItems(value)?.map(({ name, params }) => ({ name, remaining: whole(params.get('r')), resetSeconds: whole(params.get('t')) }));
}

export interface StandardFieldsReport {
  /** Neither field was sent. */
  absent: boolean;
  /** What the fields said, in a sentence. */
  said: string;
  /** Where they disagree with X-RateLimit-* (empty when they agree, or when there is nothing to compare). */
  disagreements: string[];
}

type HeaderBag = Readonly<Record<string, string | undefined>>;

/**
 * The standard fields of one answer, compared with its X-RateLimit-*: the policy whose quota is X-RateLimit-Limit
 * should have r = X-RateLimit-Remaining and t = X-RateLimit-Reset less the time the answer came (whole seconds,
 * either way rounded). `receivedAt` is ms since the epoch on the target's clock.
 */
export function compareStandardFields(headers: HeaderBag, receivedAt: number): StandardFieldsReport {
  const [policyText, limitText] = [headers['ratelimit-policy'], headers['ratelimit']];
  if (policyText === undefined && limitText === undefined) return { absent: true, said: 'no RateLimit or RateLimit-Policy field', disagreements: [] };
  const policies = policyText === undefined ? [] : parsePolicies(policyText);
  const limits = limitText === undefined ? [] : parseLimits(limitText);
  const said = `RateLimit-Policy: ${policyText ?? '(absent)'}; RateLimit: ${limitText ?? '(absent)'}`;
  const disagreements: string[] = [];
  if (policies === undefined) disagreements.push(`RateLimit-Policy "${policyText}" is not a Structured Field list`);
  if (limits === undefined) disagreements.push(`RateLimit "${limitText}" is not a Structured Field list`);
  const [limit, remaining, reset] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => wholeNumber(headers[name]));
  if (!policies || !limits || limit === undefined) return { absent: false, said, disagreements };
  const policy = policies.find((item) => item.quota === limit);
  if (!policy) {
    disagreements.push(`no policy has q=${limit}, the X-RateLimit-Limit (quotas ${policies.map((item) => item.quota ?? '?').join(', ') || 'none'})`);
    return { absent: false, said, disagreements };
  }
  const left = limits.find((item) => item.name === policy.name);
  if (!left) {
    disagreements.push(`RateLimit says nothing of the policy "${policy.name}" whose quota is the X-RateLimit-Limit`);
    return { absent: false, said, disagreements };
  }
  if (remaining !== undefined && left.remaining !== remaining) disagreements.push(`r=${left.remaining ?? '?'} but X-RateLimit-Remaining ${remaining}`);
  const untilReset = reset === undefined ? undefined : reset - receivedAt / 1000;
  if (untilReset !== undefined && (left.resetSeconds === undefined || Math.abs(left.resetSeconds - untilReset) > 1.5)) {
    disagreements.push(`t=${left.resetSeconds ?? '?'} but X-RateLimit-Reset is ${untilReset.toFixed(1)} s away`);
  }
  return { absent: false, said, disagreements };
}
