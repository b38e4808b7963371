/**
 * The syslog source on its own, fed datagrams framed as nginx frames them: lines of two gateways merged by their
 * time (a line held a second for lines that may come before it), a number skipped in a connection's seq counted as a line lost (a connection first seen mid-way is not),
 * and a datagram that is not syslog handed on whole, for the watcher to count unreadable.
 */
import { createSocket } from 'node:dgram';
import { expect, test } from '@playwright/test';
import { SyslogSource } from '../../harness/watch/syslog-source.ts';

function framed(tag: string, time: number, seq: string): string {
  return `<190>Nov 28 01:02:03 gateway ${tag}: {"time":"${time.toFixed(3)}","seq":"${seq}","method":"GET"}`;
}

test('what a poll hands on: in time order, the held rest at the end, and the lines lost since the last poll', async () => {
  const source = await SyslogSource.listen('127.0.0.1', 0);
  const sender = createSocket('udp4');
  const send = (text: string): Promise<void> => new Promise((resolve) => sender.send(text, source.address.port, '127.0.0.1', () => resolve()));
  try {
    const t = 1_764_000_000;
    for (const line of [framed('gw1', t + 0.2, '100-7-1'), framed('gw2', t + 0.1, '200-3-5'), framed('gw1', t + 0.4, '100-7-2'), framed('gw2', t + 0.3, '200-3-8'), 'not syslog at all', framed('gw1', t + 2.5, '100-7-3')]) await send(line);
    const received: string[] = [];
    let lost = 0;
    await expect.poll(() => {
      const read = source.read(false);
      received.push(...read.lines);
      lost += read.gaps;
      return received.length;
    }, { timeout: 5_000 }).toBeGreaterThanOrEqual(5);
    // The line 2.5 s later is held for lines of other gateways (until the stream is quiet for a second, or the
    // end); the rest came out by time, the stray datagram first.
    const seqs = [...received, ...source.read(true).lines].map((line) => /"seq":"([^"]+)"/.exec(line)?.[1] ?? line);
    expect(seqs).toEqual(['not syslog at all', '200-3-5', '100-7-1', '200-3-8', '100-7-2', '100-7-3']);
    expect(lost).toBe(2);
  } finally {
    sender.close();
    source.close();
  }
});

test('datagrams of one connection that overtake each other within the hold are no gap; a number missing still is', async () => {
  const source = await SyslogSource.listen('127.0.0.1', 0);
  const sender = createSocket('udp4');
  const send = (text: string): Promise<void> => new Promise((resolve) => sender.send(text, source.address.port, '127.0.0.1', () => resolve()));
  try {
    const t = 1_764_000_000;
    // 2 and 3 arrive the other way round, 4 and 5 were logged in the same millisecond and arrive reversed, 7 never comes.
    for (const line of [framed('gw1', t + 0.1, '100-7-1'), framed('gw1', t + 0.3, '100-7-3'), framed('gw1', t + 0.2, '100-7-2'), framed('gw1', t + 0.4, '100-7-5'), framed('gw1', t + 0.4, '100-7-4'), framed('gw1', t + 0.5, '100-7-6'), framed('gw1', t + 0.6, '100-7-8')]) await send(line);
    // Datagrams on the loopback arrive at once; read(true) then hands on every one held.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const all = source.read(true);
    expect(all.lines.map((line) => /"seq":"[^"]*-(\d+)"/.exec(line)?.[1])).toEqual(['1', '2', '3', '4', '5', '6', '8']);
    expect(all.gaps).toBe(1);
  } finally {
    sender.close();
    source.close();
  }
});
