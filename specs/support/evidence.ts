/**
 * Evidence for a failure or a warning: the request and the response that proved it, and a curl command that
 * replays the request. Every key is replaced by the name of the variable that holds it, and headers that
 * change on every response are masked, so two runs give comparable evidence and none gives away a key.
 */
import type { Redactor } from '../../lib/redact.ts';
import type { Exchange } from './exchange.ts';

export interface Evidence {
  rule: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; body: string };
  curl: string;
}

export const MAX_EVIDENCE_BODY = 4_096;
const VOLATILE_HEADERS = new Set(['date', 'x-ratelimit-reset']);
export const MASKED = '<masked>';

export function evidenceOf(rule: string, exchange: Exchange, redactor: Redactor): Evidence {
  const { request, response } = exchange;
  const requestHeaders = redactor.headers(request.headers);
  const responseHeaders = redactor.headers(response.headers);
  for (const name of Object.keys(responseHeaders)) if (VOLATILE_HEADERS.has(name.toLowerCase())) responseHeaders[name] = MASKED;
  const body = request.body === undefined ? undefined : redactor.text(truncate(request.body));
  return {
    rule,
    request: { method: request.method, url: redactor.text(request.url), headers: requestHeaders, ...(body !== undefined ? { body } : {}) },
    response: { status: response.status, headers: responseHeaders, body: redactor.text(truncate(response.body)) },
    curl: curlCommand(request.method, redactor.text(request.url), requestHeaders, request.body === undefined ? undefined : redactor.text(request.body)),
  };
}

function truncate(text: string): string {
  return text.length > MAX_EVIDENCE_BODY ? `${text.slice(0, MAX_EVIDENCE_BODY)}… (${text.length - MAX_EVIDENCE_BODY} more characters)` : text;
}

/**
 * A curl command for the request. A header that names a key variable ($PETSTORE_API_KEY_FREE) is double-quoted
 * so the shell substitutes the key; everything else is single-quoted and taken literally.
 */
export function curlCommand(method: string, url: string, headers: Readonly<Record<string, string>>, body: string | undefined): string {
  const parts = ['curl', '-i', '-X', method, singleQuoted(url)];
  for (const [name, value] of Object.entries(headers)) {
    const header = `${name}: ${value}`;
    parts.push('-H', /\$PETSTORE_API_KEY_[A-Z]+/.test(value) ? doubleQuotedKeepingVariables(header) : singleQuoted(header));
  }
  if (body !== undefined) parts.push('--data-binary', singleQuoted(body));
  return parts.join(' ');
}

function singleQuoted(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function doubleQuotedKeepingVariables(text: string): string {
  const escaped = text.replace(/[\\"`]/g, '\\$&').replace(/\$(?!PETSTORE_API_KEY_[A-Z]+)/g, '\\$');
  return `"${escaped}"`;
}
