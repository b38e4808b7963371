/**
 * What ties lib/generated/contract-validators.ts to the contract it was compiled from: a digest of the contract's
 * schemas (a process refuses validators compiled from other schemas), and the key under which an open field's
 * ordinary values are validated.
 */
import { createHash } from 'node:crypto';

/** The SHA-1 of the schemas as JSON: the same text parsed gives the same keys in the same order. */
export function schemasDigest(schemas: object): string {
  return createHash('sha1').update(JSON.stringify(schemas)).digest('hex');
}

/** The key of an open field's schema of ordinary values among the compiled validators: the schema itself, as JSON. */
export function ordinaryKey(ordinary: object): string {
  return JSON.stringify(ordinary);
}
