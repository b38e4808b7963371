/**
 * Headers that tell a client where an operation stands in its life, taken from the contract: getPet is
 * deprecated with a removal date (RFC 9745 Deprecation, RFC 8594 Sunset, RFC 8288 successor Link), and the
 * store-orders area is experimental. They are sent on every response of the operation, errors included.
 */
import { operation, type OperationId } from '../lib/contract.ts';
import type { HeaderMap } from './responses.ts';

/** The spec gives no deprecation date; the reference server states 1 January 2025, before the sunset. */
export const DEPRECATED_AT = Date.UTC(2025, 0, 1);

/** The removal date of getPet (x-sunset in the contract), as a moment: the start of that day, UTC. */
export const GET_PET_SUNSET = Date.parse(`${operation('getPet').sunset ?? '2030-12-05'}T00:00:00Z`);

export const SUCCESSOR_PATH = '/v1/pets';

const getPetHeaders: HeaderMap = {
  Deprecation: `@${DEPRECATED_AT / 1000}`,
  Sunset: new Date(GET_PET_SUNSET).toUTCString(),
  Link: `<${SUCCESSOR_PATH}>; rel="successor-version"`,
};

const listOrdersHeaders: HeaderMap = { 'X-API-Stability': operation('listOrders').stability ?? 'experimental' };

const NONE: HeaderMap = {};

export function markerHeaders(id: OperationId | undefined): HeaderMap {
  if (id === 'getPet') return getPetHeaders;
  if (id === 'listOrders') return listOrdersHeaders;
  return NONE;
}
