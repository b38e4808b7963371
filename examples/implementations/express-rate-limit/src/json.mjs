/**
 * JSON with int64 numbers kept exact. categoryId is an int64 in the contract, and JSON.parse would round any
 * integer beyond 2^53; lossless-json hands those over as BigInt instead, and writes BigInt back as numbers.
 */
import express from 'express';
import { isInteger, parse, stringify } from 'lossless-json';
import { HttpError } from './errors.mjs';

const exactNumber = (text) => {
  const value = Number(text);
  return isInteger(text) && !Number.isSafeInteger(value) ? BigInt(text) : value;
};

/** Parses application/json bodies into req.body; a body that is not JSON is a 400. */
export const jsonBody = [
  express.text({ type: 'application/json' }),
  (req, _res, next) => {
    if (typeof req.body !== 'string') return next();
    try {
      req.body = parse(req.body, null, exactNumber);
      next();
    } catch (error) {
      next(new HttpError(400, 'invalid_json', `the request body is not valid JSON: ${error.message}`));
    }
  },
];

export function sendJson(res, status, value) {
  res.status(status).type('application/json').send(stringify(value));
}
