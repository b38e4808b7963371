/**
 * The standard fields of draft-ietf-httpapi-ratelimit-headers (revisions 08 to 11): RateLimit-Policy lists the
 * quota policies (`"minute";q=60;w=60`: a quota q per window of w seconds) and RateLimit what is left of each
 * (`"minute";r=42;t=18`: r left, t seconds until that quota resets). Both are Structured Field lists (RFC 9651).
 * The spec asks only for X-RateLimit-*, so these are reported, and compared with them, never failed (RL-GAP-3).
 */
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

/** Items of a Structured Field list: a string or token, then ;key=value parameters. */
function listItems(value: string): Array<{ name: string; params: Map<string, string> }> | undefined {
  const items: Array<{ name: string; params: Map<string, string> }> = [];
  const ITEM = /\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z*][\w:./*-]*))((?:\s*;\s*[a-z*][a-z0-9_.*-]*(?:=(?:"(?:[^"\\]|\\.)*"|[^;,\s]+))?)*)\s*(?:,|$)/y;
  let at = 0;
  while (at < value.length) {
    ITEM.lastIndex = at;
    const match = ITEM.exec(value);
    if (!match || match[0].length === 0) return undefined;
    const params = new Map<string, string>();
    for (const param of (match[3] ?? '').split(';').slice(1)) {
      const [key, raw = '?1'] = param.trim().split('=');
      params.set(key!, raw.replace(/^"|"$/g, ''));
    }
    items.push({ name: match[1] ?? match[2] ?? '', params });
    at = ITEM.lastIndex;
  }
  return items;
}

function integer(text: string | undefined): number | undefined {
  return text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;
}

/** The policies a RateLimit-Policy field lists, or undefined when it is not a Structured Field list. */
export function parsePolicies(value: string): PolicyItem[] | undefined {
  return listItems(value)?.map(({ name, params }) => ({ name, quota: integer(params.get('q')), windowSeconds: integer(params.get('w')) }));
}

/** What a RateLimit field says is left of each policy, or undefined when it is not a Structured Field list. */
export function parseLimits(value: string): LimitItem[] | undefined {
  return listItems(value)?.map(({ name, params }) => ({ name, remaining: integer(params.get('r')), resetSeconds: integer(params.get('t')) }));
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
  const [limit, remaining, reset] = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => integer(headers[name]?.trim()));
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
