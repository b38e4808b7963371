/** Reading the X-RateLimit-* headers the spec puts on responses, and the HTTP-dates Retry-After and Sunset may carry (Retry-After itself: rate-limiter/retry-after.ts). */

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Unix time in seconds. */
  reset: number;
}

type HeaderBag = Readonly<Record<string, string | undefined>>;

/** The most digits a whole number may have: more would not be exact as a double. */
const MOST_DIGITS = 15;

/** The three headers as numbers, or undefined when any is absent or not a whole number. */
export function readRateLimit(headers: HeaderBag): RateLimitHeaders | undefined {
  const limit = wholeNumber(headers['x-ratelimit-limit']);
  const remaining = wholeNumber(headers['x-ratelimit-remaining']);
  const reset = wholeNumber(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  return { limit, remaining, reset };
}

/**
 * One to fifteen ASCII digits, white space around them allowed. Read digit by digit (every answer's three headers are,
 * several times over): no regular expression, no conversion of the text as a whole.
 */
export function wholeNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > MOST_DIGITS) return undefined;
  let number = 0;
  for (let at = 0; at < trimmed.length; at++) {
    const digit = trimmed.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return undefined;
    number = number * 10 + digit;
  }
  return number;
}

// RFC 9110 section 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must accept.
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/** Milliseconds since the epoch of an HTTP-date, or undefined when the text is not one. */
export function parseHttpDate(value: string): number | undefined {
  const text = value.trim();
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? undefined : ms;
  }
  if (ASCTIME_DATE.test(text)) {
    const ms = Date.parse(`${text} GMT`);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
