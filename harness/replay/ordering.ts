/**
 * Causality when exchanges run concurrently. Exchanges start in recorded order, and:
 * - one that names an id (in its path or body) created earlier in the recording waits until the exchange
 *   that created it is done, so the target has the pet and the id map knows its new id;
 * - writes of a collection (creations) keep their recorded order, one at a time, and reads (lists) wait for
 *   the writes recorded before them, while reads between two writes run together. So the target creates
 *   pets in the recorded order, and a list sees the same creations it saw when recorded. A write the
 *   recording shows refused (4xx) wrote nothing, so it counts as a read (see causalNeeds in replayer.ts);
 * - a request refused with 429 when recorded waits for every earlier request with the same credential, and
 *   later ones wait for it, so the refusal falls on the same request as when recorded.
 */
export interface CausalNeeds {
  /** The recorded id this exchange creates, if it is a creation. */
  creates: string | undefined;
  /** Recorded ids the request names. */
  names: readonly string[];
  /** The collection the exchange reads or writes as a whole (e.g. "pets"), if any. */
  collection: string | undefined;
  writes: boolean;
  /** The recorded Authorization value, if any. */
  credential: string | undefined;
  /** Whether the recording has this request refused with 429. */
  refused: boolean;
}

/** Whether later exchanges may wait for this one: a creation, a read or write of a collection, a recorded refusal. */
function mayBeAwaited(needs: CausalNeeds): boolean {
  return needs.creates !== undefined || needs.collection !== undefined || needs.refused;
}

interface Group {
  writes: boolean;
  /** The group before it, done: what every member waits for. */
  after: Promise<void>;
  inFlight: number;
  closed: boolean;
  done: Promise<void>;
  resolve(): void;
}

const NOTHING = Promise.resolve();
const toVoid = (): void => undefined;

/** A creation in flight: what names its id waits for `done`. Classes, not closures: this runs for every exchange. */
class Creation {
  readonly done: Promise<void>;
  private resolve: () => void = toVoid;

  constructor(
    private readonly id: string,
    private readonly creations: Map<string, Creation>,
  ) {
    this.done = new Promise<void>((resolve) => (this.resolve = resolve));
  }

  finish(): void {
    if (this.creations.get(this.id) === this) this.creations.delete(this.id);
    this.resolve();
  }
}

export class OrderedExchange {
  private finished = false;

  constructor(
    /** Resolves when the exchange may be sent. */
    readonly ready: Promise<void>,
    /** Later exchanges may wait for this one. */
    readonly awaited: boolean,
    private readonly groups: readonly Group[],
    private readonly creation: Creation | undefined,
  ) {}

  /** The exchange is done (its answer is in): what waited for it may go. Again: no effect. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.creation?.finish();
    for (const group of this.groups) {
      group.inFlight--;
      if (group.closed && group.inFlight === 0) group.resolve();
    }
  }
}

export class CausalOrder {
  private readonly creations = new Map<string, Creation>();
  private readonly groups = new Map<string, Group>();

  /** Call in recorded order. `ready` resolves when the exchange may be sent; call `finish()` when it is done (again: no effect). */
  enter(needs: CausalNeeds): OrderedExchange {
    const waits: Array<Promise<void>> = [];
    for (const id of needs.names) {
      const creation = this.creations.get(id);
      if (creation) waits.push(creation.done);
    }
    const groups: Group[] = [];
    if (needs.collection !== undefined) groups.push(this.join(`collection ${needs.collection}`, needs.writes));
    if (needs.credential !== undefined) groups.push(this.join(`credential ${needs.credential}`, needs.refused));
    for (const group of groups) waits.push(group.after);

    let creation: Creation | undefined;
    if (needs.creates !== undefined) {
      creation = new Creation(needs.creates, this.creations);
      this.creations.set(needs.creates, creation);
    }
    const ready = waits.length === 0 ? NOTHING : waits.length === 1 ? (waits[0] as Promise<void>) : Promise.all(waits).then(toVoid);
    return new OrderedExchange(ready, mayBeAwaited(needs), groups, creation);
  }

  /** Joins the current group of readers under `key`, or opens the next group (which waits for this one); a writer is a group alone. */
  private join(key: string, writes: boolean): Group {
    const current = this.groups.get(key);
    if (current && !writes && !current.writes) {
      current.inFlight++;
      return current;
    }
    let resolve = (): void => undefined;
    const done = new Promise<void>((r) => (resolve = r));
    const group: Group = { writes, after: current ? current.done : NOTHING, inFlight: 1, closed: false, done, resolve };
    if (current) {
      current.closed = true;
      if (current.inFlight === 0) current.resolve();
    }
    this.groups.set(key, group);
    return group;
  }
}
