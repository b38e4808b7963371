/**
 * A valid NewPet at a gap (an empty name, category 2^63 - 1: values whose acceptance the spec leaves open, as
 * fixtures/openapi.yaml marks with x-acceptance-open) may rightly be refused with 400 and an Error. The refusal
 * is the gap's, not a broken create, when the same pet with the unusual values made ordinary, one field after
 * another, is created: the field whose turn it was is the one the service refused.
 */
import { type ContractSchema, type OpenField, schemaProblems, unusualOpenFields } from '../../../lib/contract.ts';
import type { LosslessValue } from '../../../lib/lossless-json.ts';
import type { Exchange } from '../exchange.ts';

type Fields = Record<string, LosslessValue>;

export interface GapRefusal {
  /** The fields made ordinary before the pet was created; the last is the one the service refused. */
  fields: OpenField[];
  /** The pet as created, and its creation. */
  pet: Fields;
  exchange: Exchange;
}

/** The same pet with ordinary values was refused too: the answer to it is the evidence against CREATE-1. */
export interface OrdinaryRefused {
  ordinary: Fields;
  exchange: Exchange;
}

/**
 * After `refused`: the fields the refusal is owed to, with the pet that was created in their place; the answer
 * to the pet with every value ordinary when that was not created either; undefined when the refusal cannot be
 * a gap's (not a 400 with an Error, no unusual value). Only the refusal's status and body are read: a wrong
 * rate-limit header on it is judged by its own rule and says nothing of why the pet was refused.
 */
export async function refusalAtGap(schema: ContractSchema, pet: Fields, refused: Exchange, create: (pet: Fields) => Promise<Exchange>): Promise<GapRefusal | OrdinaryRefused | undefined> {
  if (refused.response.status !== 400 || refused.kind.kind !== 'gap' || refused.json === undefined || schemaProblems('Error', refused.json).length > 0) return undefined;
  const unusual = unusualOpenFields(schema, pet);
  let ordinary = { ...pet };
  let exchange = refused;
  for (let index = 0; index < unusual.length; index++) {
    const field = unusual[index]!;
    ordinary = { ...ordinary, [field.name]: field.example };
    exchange = await create(ordinary);
    if (exchange.response.status === 201) return { fields: unusual.slice(0, index + 1), pet: ordinary, exchange };
  }
  return unusual.length === 0 ? undefined : { ordinary, exchange };
}
