/**
 * One of several processes that judge the same stream, each the keys whose pseudonym hashes to it (`--shard i/n`):
 * a key's windows and its client's refusals are judged whole by one process, and every exchange by exactly one.
 * Exchanges that carry no key are the first shard's. Every shard reads every line, so each names every key by
 * the same pseudonym (the order keys are first seen in), and hashes it the same.
 */
export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** "2/3" as a shard; an error that says what a shard is written like, for anything else. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new Error(`--shard takes i/n, the shard's number from 1 to n and how many there are (1/2, 2/2), not "${text}"`);
  return { index, count };
}

/** Whether the shard judges an exchange of this key (undefined: no key). */
export function ownsKey(shard: Shard | undefined, pseudonym: string | undefined): boolean {
  if (shard === undefined || shard.count === 1) return true;
  if (pseudonym === undefined) return shard.index === 1;
  return fnv1a(pseudonym) % shard.count === shard.index - 1;
}

/** FNV-1a, 32 bits: stable across processes and versions, unlike a runtime's own string hash. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < text.length; at++) {
    hash ^= text.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function shardText(shard: Shard | undefined): string {
  return shard === undefined || shard.count === 1 ? '' : `, shard ${shard.index}/${shard.count} of its keys`;
}
