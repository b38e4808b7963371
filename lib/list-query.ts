/**
 * What a list's query asks (GET /pets?status=sold&limit=3: the text after the first "?"), read once per distinct path:
 * a capture lists the same few pages again and again, and reading each query with URLSearchParams, twice (the list
 * rules and the created pets each read it), was a tenth of judging a list. By the path, not the query cut out of it:
 * the judge has hashed the path already (placing the request). Bounded: past REMEMBERED distinct paths the memory
 * starts again.
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

/** `path`: below the base URL, query included. */
export function listQuery(path: string): ListQuery {
  const known = remembered.get(path);
  if (known) return known;
  const at = path.indexOf('?');
  const query = at === -1 ? '' : path.slice(at + 1);
  const params = new URLSearchParams(query);
  const read: ListQuery = { redacted: REDACTED_QUERY.test(query), statuses: params.getAll('status'), limits: params.getAll('limit') };
  remembered.set(path, read);
  return read;
}
