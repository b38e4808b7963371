/**
 * Where two JSON bodies differ, by JSON pointer, with the recorded body read in the target's ids (id-map.ts)
 * as it is walked, never copied. Lists whose items all carry a unique id are matched by id, so order is no
 * difference; when the ids already line up, as they mostly do, items are paired by position without a map.
 * Runs once per exchange, so paths are two stacks, copied only when a difference is written down.
 */
import { stringifyLossless, type LosslessValue } from '../../lib/lossless-json.ts';
import type { IdMap } from './id-map.ts';
import { isIgnored, joinPointer, type IgnoreRules } from './ignore.ts';

export interface Difference {
  /** "status", "header content-type", "body" or "body /0/name". */
  where: string;
  /** For differences inside JSON bodies: where in each body (they differ when a list came in another order). */
  recordedPointer?: string;
  replayedPointer?: string;
  recorded: string | undefined;
  replayed: string | undefined;
}

type JsonObject = { [key: string]: LosslessValue };
type Side = 'both' | 'recorded' | 'replayed';

const MAX_SHOWN_VALUE = 200;

export function diffBodies(recorded: LosslessValue, replayed: LosslessValue, rules: IgnoreRules, ids: IdMap, out: Difference[], max: number): void {
  new BodyDiff(rules, ids, out, max).values(recorded, replayed);
}

class BodyDiff {
  /** The path in the recorded body, which ignore rules match. */
  private readonly at: string[] = [];
  /** The path in the replayed body: another index where a list came in another order. */
  private readonly there: string[] = [];

  constructor(
    private readonly rules: IgnoreRules,
    private readonly ids: IdMap,
    private readonly out: Difference[],
    private readonly max: number,
  ) {}

  values(recorded: LosslessValue, replayed: LosslessValue): void {
    if (recorded === replayed || this.out.length > this.max) return;
    if (this.at.length > 0 && this.ignored()) return;
    const recordedKind = kind(recorded);
    if (recordedKind !== kind(replayed)) return this.push('both', recorded, replayed);
    if (recordedKind === 'array') return this.arrays(recorded as LosslessValue[], replayed as LosslessValue[]);
    if (recordedKind === 'object') return this.objects(recorded as JsonObject, replayed as JsonObject);
    if (String(recorded) !== String(replayed)) this.push('both', recorded, replayed);
  }

  private objects(recorded: JsonObject, replayed: JsonObject): void {
    for (const key in recorded) {
      const value = this.ids.fieldInTarget(key, recorded[key] as LosslessValue);
      this.enter(key, key);
      if (Object.hasOwn(replayed, key)) this.values(value, replayed[key] as LosslessValue);
      else if (!this.ignored()) this.push('recorded', value, undefined);
      this.leave();
    }
    for (const key in replayed) {
      if (Object.hasOwn(recorded, key)) continue;
      this.enter(key, key);
      if (!this.ignored()) this.push('replayed', undefined, replayed[key]);
      this.leave();
    }
  }

  private arrays(recorded: LosslessValue[], replayed: LosslessValue[]): void {
    if (!this.idsLineUp(recorded, replayed)) {
      const recordedById = byId(recorded, (item) => this.idOf(item));
      const replayedById = byId(replayed, (item) => this.idOf(item, false));
      if (recordedById && replayedById) return this.arraysById(recorded, replayed, recordedById, replayedById);
    }
    const length = Math.max(recorded.length, replayed.length);
    for (let index = 0; index < length; index++) {
      const segment = String(index);
      this.enter(segment, segment);
      if (index >= replayed.length) {
        if (!this.ignored()) this.push('recorded', recorded[index], undefined);
      } else if (index >= recorded.length) {
        if (!this.ignored()) this.push('replayed', undefined, replayed[index]);
      } else this.values(recorded[index] as LosslessValue, replayed[index] as LosslessValue);
      this.leave();
    }
  }

  private arraysById(recorded: LosslessValue[], replayed: LosslessValue[], recordedById: ReadonlyMap<string, number>, replayedById: ReadonlyMap<string, number>): void {
    recorded.forEach((item, index) => {
      const match = replayedById.get(this.idOf(item) ?? '');
      this.enter(String(index), String(match ?? index));
      if (match !== undefined) this.values(item, replayed[match] as LosslessValue);
      else if (!this.ignored()) this.push('recorded', item, undefined);
      this.leave();
    });
    replayed.forEach((item, index) => {
      if (recordedById.has(this.idOf(item, false) ?? '')) return;
      this.enter(String(index), String(index));
      if (!this.ignored()) this.push('replayed', undefined, item);
      this.leave();
    });
  }

  /** Same length and, item by item, the same id: matching by id would pair them by position anyway. */
  private idsLineUp(recorded: LosslessValue[], replayed: LosslessValue[]): boolean {
    if (recorded.length !== replayed.length) return false;
    for (let index = 0; index < recorded.length; index++) {
      const id = this.idOf(recorded[index] as LosslessValue);
      if (id === undefined || id !== this.idOf(replayed[index] as LosslessValue, false)) return false;
    }
    return true;
  }

  /** An item's id as a key ("n17", "s17"), the recorded one in the target's ids; undefined when it has none. */
  private idOf(item: LosslessValue, recorded = true): string | undefined {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const raw = item.id;
    if (raw === undefined) return undefined;
    const id = recorded ? this.ids.fieldInTarget('id', raw) : raw;
    return typeof id === 'number' || typeof id === 'bigint' || typeof id === 'string' ? `${typeof id === 'string' ? 's' : 'n'}${String(id)}` : undefined;
  }

  private enter(at: string, there: string): void {
    this.at.push(at);
    this.there.push(there);
  }

  private leave(): void {
    this.at.pop();
    this.there.pop();
  }

  private ignored(): boolean {
    return this.rules.body.length > 0 && isIgnored(this.at, this.rules);
  }

  private push(side: Side, recorded: LosslessValue | undefined, replayed: LosslessValue | undefined): void {
    const recordedPointer = side === 'replayed' ? undefined : joinPointer(this.at);
    const replayedPointer = side === 'recorded' ? undefined : joinPointer(this.there);
    this.out.push({
      where: `body ${(recordedPointer ?? replayedPointer) || '(whole)'}`,
      ...(recordedPointer !== undefined ? { recordedPointer } : {}),
      ...(replayedPointer !== undefined ? { replayedPointer } : {}),
      recorded: recorded === undefined ? undefined : show(this.ids.normalise(recorded)),
      replayed: show(replayed),
    });
  }
}

/** Item indexes by id when every item has a unique id; undefined otherwise. */
function byId(items: readonly LosslessValue[], idOf: (item: LosslessValue) => string | undefined): Map<string, number> | undefined {
  const map = new Map<string, number>();
  for (let index = 0; index < items.length; index++) {
    const id = idOf(items[index] as LosslessValue);
    if (id === undefined || map.has(id)) return undefined;
    map.set(id, index);
  }
  return map;
}

function kind(value: LosslessValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'number';
  return typeof value;
}

function show(value: LosslessValue | undefined): string | undefined {
  return value === undefined ? undefined : shorten(stringifyLossless(value));
}

export function shorten(text: string): string {
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE)}…` : text;
}
