/**
 * Small, exact edits of proxied exchanges, shared by the broken servers and the legitimate variants: which
 * operation a request addresses, its query, and JSON bodies edited losslessly (an id above 2^53 stays exact).
 */
import { matchOperation, type OperationId } from '../../../lib/contract.ts';
import { stringifyLossless, tryParseLossless, type LosslessValue } from '../../../lib/lossless-json.ts';
import type { ExchangeTransform, ProxyRequest, ProxyResponse } from '../../support/fault-proxy.ts';
import { isProxyResponse } from '../../support/fault-proxy.ts';

export const BASE_PATH = '/v1';

export function pathOf(request: ProxyRequest): string {
  const at = request.path.indexOf('?');
  return at === -1 ? request.path : request.path.slice(0, at);
}

export function queryOf(request: ProxyRequest): URLSearchParams {
  const at = request.path.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : request.path.slice(at + 1));
}

export function withQuery(request: ProxyRequest, query: URLSearchParams): ProxyRequest {
  const text = query.toString();
  return { ...request, path: `${pathOf(request)}${text ? `?${text}` : ''}` };
}

/** The operation a request addresses, when it is one of the contract's (under /v1). */
export function operationOf(request: ProxyRequest): OperationId | undefined {
  const path = pathOf(request);
  if (!path.startsWith(`${BASE_PATH}/`)) return undefined;
  return matchOperation(request.method, path.slice(BASE_PATH.length))?.operation.id;
}

/** Every `nth` request to `operationId` (counted across the run) gets `treatment` instead of being forwarded as it came. */
export function everyNth(operationId: OperationId, nth: number, treatment: (request: ProxyRequest) => ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>): () => ExchangeTransform {
  return () => {
    let seen = 0;
    return {
      request(request) {
        if (operationOf(request) !== operationId) return request;
        seen++;
        return seen % nth === 0 ? treatment(request) : request;
      },
    };
  };
}

export function petIdOf(request: ProxyRequest): string | undefined {
  const path = pathOf(request);
  return path.startsWith(`${BASE_PATH}/pets/`) ? decodeURIComponent(path.slice(`${BASE_PATH}/pets/`.length)) : undefined;
}


export type JsonObject = { [key: string]: LosslessValue };

export function isObject(value: LosslessValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

/** The response with its JSON body replaced by `edit(body)`; left alone when the body is not JSON. */
export function editJsonBody(response: ProxyResponse, edit: (body: LosslessValue) => LosslessValue): ProxyResponse {
  const body = tryParseLossless(response.body);
  return body === undefined ? response : { ...response, body: stringifyLossless(edit(body)) };
}

/** Applies `edit` to every Pet-like object in a body (the body itself, or each item of an array). */
export function eachPet(body: LosslessValue, edit: (pet: JsonObject) => JsonObject): LosslessValue {
  if (Array.isArray(body)) return body.map((item) => (isObject(item) ? edit(item) : item));
  return isObject(body) && 'id' in body ? edit(body) : body;
}

export function isErrorBody(response: ProxyResponse): boolean {
  return response.status >= 400 && isObject(tryParseLossless(response.body));
}

export function jsonResponse(status: number, body: LosslessValue, headers: Record<string, string> = {}): ProxyResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: stringifyLossless(body) };
}

/** Several transforms as one: requests pass through them in order (the first answer wins), responses in reverse. */
export function combine(transforms: readonly ExchangeTransform[]): ExchangeTransform {
  return {
    async request(request) {
      let current: ProxyRequest = request;
      for (const transform of transforms) {
        if (!transform.request) continue;
        const next = await transform.request(current);
        if (isProxyResponse(next)) return next;
        current = next;
      }
      return current;
    },
    async response(response, request) {
      let current = response;
      for (const transform of [...transforms].reverse()) if (transform.response) current = await transform.response(current, request);
      return current;
    },
  };
}
