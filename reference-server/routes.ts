/**
 * The four operations of the contract, each answering with a Reply. By the time a route runs, the caller is
 * authenticated and admitted by the limiter; what is left is the operation's own rules.
 */
import type { IncomingMessage } from 'node:http';
import type { OperationId } from '../lib/contract.ts';
import { readBody } from './body.ts';
import type { ServerConfig } from './config.ts';
import { GET_PET_SUNSET, SUCCESSOR_PATH } from './markers.ts';
import { petJson } from './pet.ts';
import { errorReply, json, type Reply } from './responses.ts';
import type { PetStore } from './store.ts';
import { checkJsonContentType, parseListQuery, parseNewPet, parsePetId } from './validation.ts';

/** The version segment every operation answers under (spec: Versioning). */
export const BASE_PATH = '/v1';

export interface RouteRequest {
  req: IncomingMessage;
  search: string;
  pathParams: Record<string, string>;
  now: number;
}

export interface RouteContext {
  store: PetStore;
  config: ServerConfig;
}

export type Route = (request: RouteRequest, context: RouteContext) => Reply | Promise<Reply>;

function listPets({ search }: RouteRequest, { store }: RouteContext): Reply {
  const query = parseListQuery(search);
  if (!query.ok) return errorReply(400, query.problem);
  return json(200, store.listBody(query.value.limit, query.value.status));
}

/** The body is read (up to the size limit) before it is judged, so a refused body never lingers on the connection. */
async function createPet({ req }: RouteRequest, { store, config }: RouteContext): Promise<Reply> {
  const body = await readBody(req, config.maxBodyBytes);
  if (body.kind === 'too-large') return { ...errorReply(413, `the request body is larger than ${config.maxBodyBytes} bytes`), close: true };
  if (body.kind === 'aborted') return errorReply(400, 'the request body ended before it was complete');
  const contentType = checkJsonContentType(req.headers['content-type']);
  if (!contentType.ok) return errorReply(400, contentType.problem);
  const input = parseNewPet(body.bytes);
  if (!input.ok) return errorReply(400, input.problem);
  const pet = store.add(input.value);
  return json(201, petJson(pet), { Location: `${BASE_PATH}/pets/${pet.id}` });
}

function getPet({ pathParams, now }: RouteRequest, { store }: RouteContext): Reply {
  if (now >= GET_PET_SUNSET) {
    return errorReply(404, `GET /pets/{petId} was removed on ${new Date(GET_PET_SUNSET).toUTCString()}; use GET ${SUCCESSOR_PATH}?status=<status> instead`);
  }
  const id = parsePetId(pathParams.petId ?? '');
  if (!id.ok) return errorReply(404, id.problem);
  const pet = store.get(id.value);
  if (!pet) return errorReply(404, `no pet has id ${id.value}`);
  return json(200, petJson(pet));
}

/** Orders cannot be created through this interface, so the experimental list is always empty. */
function listOrders(): Reply {
  return json(200, '[]');
}

export const routes: Readonly<Record<OperationId, Route>> = { listPets, createPet, getPet, listOrders };
