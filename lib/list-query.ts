/**
 * What a list's query asks (GET /pets?status=sold&limit=3: the text after the "?"), read once per distinct query: a
 * capture lists the same few pages again and again, and reading each query with URLSearchParams, twice (the list
 * rules and the created pets each read it), was a tenth of judging a list. Bounded: past REMEMBERED distinct queries
 * the memory starts again.
 */
import { BoundedMemo } from './bounded-memo.ts';

export interface ListQuery {
  /** A gateway's log redacted the query whole (it carried a credential): it says nothing of what was asked. */
  redacted: boolean;
  /** Each `status` given, in order. */
  statuses: readonly string[];
  /** Each `limit` given, in order. */
  limits: readonly string[];
}

const REMEMBERED = 4_096;
const REDACTED_QUERY = /(?:^|&)(?:<redacted>|%3Credacted%3E)(?:&|$)/i;
const remembered = new BoundedMemo<string, ListQuery>(REMEMBERED);

export function listQuery(query: string): ListQuery {
  const known = remembered.get(query);
  if (known) return known;
  const params = new URLSearchParams(query);
  const read: ListQuery = { redacted: REDACTED_QUERY.test(query), statuses: params.getAll('status'), limits: params.getAll('limit') };
  remembered.set(query, read);
  return read;
}
