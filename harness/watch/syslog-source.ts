/**
 * Lines that gateways send over syslog (nginx: `access_log syslog:server=HOST:PORT,tag=gw1 petstore_exchange;`),
 * several gateways into one UDP socket, handed on merged by the time each line carries: a line is held until a
 * line MERGE_MS later has come from any gateway, then all held lines up to there are handed on in time order
 * (what comes later still, within the judge's reorder buffer, is put in place by the judge itself); a stream quiet
 * for MERGE_MS hands on all it holds.
 * UDP loses datagrams without a word. A line that carries `"seq":"$pid-$connection-$connection_requests"` (the
 * how-to's syslog format) tells a gap: on one connection of one nginx worker requests are numbered 1, 2, 3 …, so
 * a number skipped is a line lost, counted in lines lost and never judged as anything. Numbers are compared as held
 * lines are handed on, in time order, which on one connection is its order: datagrams that overtake each other
 * within the hold are no gap. The last lines of a connection, lost, leave no gap to see, nor do its first ones (a
 * connection first seen at 5 may have been open before the watcher started): the count is a floor.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { FollowedLines } from './log-follower.ts';

/** How long a line is held for lines of other gateways that may come before it. */
const MERGE_MS = 1_000;
/** Lines held at most; past it the oldest are handed on unmerged (a burst larger than a second's buffer). */
const MAX_HELD = 200_000;
/** Connections whose numbering is followed; the oldest are let go past it. */
const MAX_CONNECTIONS = 50_000;

interface Held {
  at: number;
  line: string;
  /** Its connection (gateway tag, nginx worker, connection) and number on it, where the line carries a seq. */
  seq?: { connection: string; number: number };
}

export class SyslogSource {
  private readonly socket: Socket;
  private held: Held[] = [];
  private newest = 0;
  private lastReceived = 0;
  private lost = 0;
  private readonly lastSeq = new Map<string, number>();

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.on('message', (message) => this.receive(message.toString('utf8')));
  }

  static async listen(host: string, port: number): Promise<SyslogSource> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => socket.once('error', reject).bind(port, host, () => resolve()));
    return new SyslogSource(socket);
  }

  get address(): { host: string; port: number } {
    const address = this.socket.address();
    return { host: address.address, port: address.port };
  }

  /** The lines merged so far (all held ones when `all`), and the lines lost on the way since the last call. */
  read(all = false): FollowedLines {
    // Two lines of one connection logged in the same millisecond are put in their numbers' order.
    this.held.sort((a, b) => a.at - b.at || (a.seq?.number ?? 0) - (b.seq?.number ?? 0));
    // A quiet stream (nothing for MERGE_MS) has nothing more to put before what it holds.
    const until = all || Date.now() - this.lastReceived >= MERGE_MS ? Number.POSITIVE_INFINITY : this.newest - MERGE_MS;
    let count = 0;
    while (count < this.held.length && ((this.held[count] as Held).at <= until || this.held.length - count > MAX_HELD)) count++;
    const handed = this.held.slice(0, count);
    this.held = this.held.slice(count);
    for (const held of handed) if (held.seq) this.countGap(held.seq.connection, held.seq.number);
    const out: FollowedLines = { lines: handed.map((held) => held.line), gaps: this.lost, behindBytes: 0 };
    this.lost = 0;
    return out;
  }

  /** Nothing to save: a datagram not yet received is the sender's to keep. */
  save(): void {}

  close(): void {
    this.socket.close();
  }

  private receive(datagram: string): void {
    this.lastReceived = Date.now();
    // RFC 3164 as nginx writes it: "<190>Nov 28 01:02:03 host gw1: {...}"; the message starts after the tag's ": ".
    const framed = /^<\d{1,3}>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ ([^:\s]+): (.*)$/s.exec(datagram.trimEnd());
    // Not syslog as nginx frames it: handed on whole, for the watcher to count unreadable.
    if (!framed) return void this.held.push({ at: 0, line: datagram });
    const [, tag, line] = framed as unknown as [string, string, string];
    const at = timeOf(line);
    this.newest = Math.max(this.newest, at);
    const seq = /"seq":"(\d+-\d+)-(\d+)"/.exec(line);
    this.held.push({ at, line, ...(seq ? { seq: { connection: `${tag} ${seq[1]}`, number: Number(seq[2]) } } : {}) });
  }

  private countGap(connection: string, number: number): void {
    // A connection first seen mid-way (open before the watcher started) shows no gap before its first line.
    const last = this.lastSeq.get(connection);
    if (last !== undefined && number > last + 1) this.lost += number - last - 1;
    this.lastSeq.delete(connection);
    this.lastSeq.set(connection, Math.max(last ?? 0, number));
    if (this.lastSeq.size > MAX_CONNECTIONS) this.lastSeq.delete(this.lastSeq.keys().next().value as string);
  }
}

/** The line's own time (nginx's $msec), ms; a line without one is handed on at once (the judge says what is wrong with it). */
function timeOf(line: string): number {
  const time = /"time":"(\d+(?:\.\d+)?)"/.exec(line);
  return time ? Number(time[1]) * 1000 : 0;
}
