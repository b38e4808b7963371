/** The pets operations (spec: Endpoints), kept in memory. */
import { Router } from 'express';
import { HttpError } from './errors.mjs';
import { sendJson } from './json.mjs';

const STATUSES = ['available', 'pending', 'sold'];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };
/** getPet is deprecated (RFC 9745) and is removed on 5 December 2030 (RFC 8594); its successor is the list. */
const GET_PET_LIFECYCLE = {
  Deprecation: `@${Date.UTC(2026, 0, 1) / 1000}`,
  Sunset: new Date(Date.UTC(2030, 11, 5)).toUTCString(),
  Link: '</v1/pets>; rel="successor-version"',
};

export function petsRouter() {
  const pets = new Map();
  let lastId = 0;
  const router = Router();

  router.get('/pets', (req, res) => {
    const limit = pageSize(req.query.limit);
    const status = req.query.status;
    if (status !== undefined && !STATUSES.includes(status)) throw invalid(`status must be one of ${STATUSES.join(', ')}`);
    const page = [];
    for (const pet of pets.values()) {
      if (page.length === limit) break;
      if (status === undefined || pet.status === status) page.push(pet);
    }
    sendJson(res, 200, page);
  });

  router.post('/pets', (req, res) => {
    const pet = { id: ++lastId, ...newPet(req.body) };
    pets.set(String(pet.id), pet);
    sendJson(res, 201, pet);
  });

  router.get('/pets/:petId', (req, res) => {
    res.set(GET_PET_LIFECYCLE);
    const pet = /^-?\d+$/.test(req.params.petId) ? pets.get(BigInt(req.params.petId).toString()) : undefined;
    if (!pet) throw new HttpError(404, 'not_found', `no pet has the id ${req.params.petId}`);
    sendJson(res, 200, pet);
  });

  return router;
}

function pageSize(limit) {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'string' || !/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) {
    throw invalid(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return Number(limit);
}

/** A NewPet, validated; categoryId arrives as a number, or as a BigInt beyond 2^53 (see json.mjs). */
function newPet(body) {
  if (body === undefined) throw invalid('the request body is required: a JSON object with name and categoryId');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the request body must be a JSON object');
  const { name, categoryId, status } = body;
  if (name === undefined || categoryId === undefined) throw invalid('name and categoryId are required');
  if (typeof name !== 'string') throw invalid('name must be a string');
  if (!isInt64(categoryId)) throw invalid(`categoryId must be an integer from ${INT64.min} to ${INT64.max}`);
  if (status !== undefined && !STATUSES.includes(status)) throw invalid(`status must be one of ${STATUSES.join(', ')}`);
  return status === undefined ? { name, categoryId } : { name, categoryId, status };
}

function isInt64(value) {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64.min && value <= INT64.max;
}

function invalid(message) {
  return new HttpError(400, 'invalid_request', message);
}
