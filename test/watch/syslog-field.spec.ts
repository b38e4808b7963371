/**
 * Several gateways over syslog into one watcher: two Debian nginx gateways, configured as the judge's how-to
 * writes them plus what the watch how-to adds for syslog (a `seq` member, `access_log syslog:server=…,tag=…`),
 * in front of one correct reference server, send their lines over UDP through a relay that drops every seventh
 * datagram, as a lossy network would. The same keys go through both gateways, so each key's exchanges reach the
 * watcher from two streams, merged by time. The watcher judges every line that arrived, fails no rule, and counts
 * as lost exactly the dropped lines between two arrived lines of their connection (a connection's last lines,
 * lost, leave no number skipped; its first ones look like a connection open before the watcher started).
 */
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../../lib/free-port.ts';
import { DEMO_KEYS } from '../../lib/keys.ts';
import { NGINX_HINT, nginxPath, OPENSSL_HINT, opensslPath, startNginx } from '../judge/nginx.ts';
import { tempDir } from '../judge/support.ts';
import { startVariant } from '../suite/support/variant-target.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { driveLoad, startSyslogWatcher, testedBlock, total } from './production.ts';

skipWithout(nginxPath() !== undefined, NGINX_HINT);
skipWithout(opensslPath() !== undefined, OPENSSL_HINT);

const FREE_1 = DEMO_KEYS.free[0] as string;
const PRO_1 = DEMO_KEYS.pro[0] as string;
const NAMED = { [FREE_1]: 'free-1', [PRO_1]: 'pro-1' };
const DROP_EVERY = 7;

test('two gateways over syslog through a lossy relay: every line that arrived judged, the dropped ones counted lost, no rule failed', async () => {
  test.setTimeout(180_000);
  const dir = tempDir('syslog');
  const server = await startVariant({ timeScale: 10 });
  const watcherPort = await freePort();
  const syslogPort = await freePort();
  const relayPort = await freePort();
  const watcher = await startSyslogWatcher(`127.0.0.1:${syslogPort}`, watcherPort, join(dir, 'report'));
  // The relay: every datagram on to the watcher but every seventh; which ones it dropped, by their seq.
  const relay = createSocket('udp4');
  const dropped: string[] = [];
  const arrived: string[] = [];
  relay.on('message', (datagram) => {
    const seq = /"seq":"([^"]+)"/.exec(datagram.toString('utf8'))?.[1] ?? '?';
    if ((arrived.length + dropped.length + 1) % DROP_EVERY === 0) return void dropped.push(seq);
    arrived.push(seq);
    relay.send(datagram, syslogPort, '127.0.0.1');
  });
  await new Promise<void>((resolve) => relay.bind(relayPort, '127.0.0.1', resolve));
  const seqMember = testedBlock('syslog seq').trim().replace(/^'\{"time":"\$msec",/, '').replace(/'$/, '');
  const gateways = await Promise.all(
    ['gw1', 'gw2'].map((tag) => {
      const accessLog = testedBlock('syslog access_log').trim();
      const target = /^access_log (syslog:server=)10\.0\.0\.9:5514,tag=gw1 petstore_exchange;$/.exec(accessLog);
      if (!target) throw new Error(`the watch how-to's syslog access_log no longer reads as tested: ${accessLog}`);
      return startNginx(server.baseUrl, NAMED, {
        plain: true,
        accessLog: `${target[1]}127.0.0.1:${relayPort},tag=${tag}`,
        edit: (http) => {
          if (!http.includes(`'{"time":"$msec",`)) throw new Error("the judge how-to's log_format no longer starts with time: update the watch how-to's seq line");
          return http.replace(`'{"time":"$msec",`, `'{"time":"$msec",${seqMember}`);
        },
      });
    }),
  );
  try {
    // The same keys through both gateways at once: one key's exchanges reach the watcher from two streams.
    const loads = gateways.map((gateway) => driveLoad(gateway.plainBaseUrl as string, [{ key: FREE_1, name: 'free-1' }, { key: PRO_1, name: 'pro-1' }], Date.now() + 20_000, 20));
    await Promise.all(loads.map((load) => load.done));
    const answered = loads.reduce((sum, load) => sum + total(load.answered), 0);
    expect(loads.reduce((sum, load) => sum + total(load.refused), 0), 'the clients met 429s').toBeGreaterThan(0);
    await expect.poll(() => arrived.length + dropped.length, { timeout: 10_000, message: 'every line reached the relay' }).toBe(answered);
    await expect.poll(async () => /^petstore_watch_exchanges_read_total (\d+)$/m.exec(await (await fetch(`${watcher.origin}/metrics`)).text())?.[1], { timeout: 10_000 }).toBe(String(arrived.length));
    const metrics = await (await fetch(`${watcher.origin}/metrics`)).text();
    const said = await watcher.stop();
    expect(said.exchanges, 'exchanges judged against lines that arrived').toBe(arrived.length);
    // A dropped line is seen as lost between two lines of its connection that arrived: a connection's last lines
    // leave no number skipped, and its first ones look like a connection open before the watcher started.
    const span = new Map<string, [number, number]>();
    const split = (seq: string): [string, number] => [seq.slice(0, seq.lastIndexOf('-')), Number(seq.slice(seq.lastIndexOf('-') + 1))];
    for (const [connection, number] of arrived.map(split)) {
      const [first, last] = span.get(connection) ?? [number, number];
      span.set(connection, [Math.min(first, number), Math.max(last, number)]);
    }
    const noticeable = dropped.map(split).filter(([connection, number]) => {
      const [first, last] = span.get(connection) ?? [0, 0];
      return first < number && number < last;
    });
    expect(noticeable.length).toBeGreaterThan(0);
    expect(metrics, `${dropped.length} dropped, ${noticeable.length} of them between two arrived lines of their connection`).toContain(`petstore_watch_lines_lost_total ${noticeable.length}\n`);
    const report = JSON.parse(readFileSync(join(dir, 'report', 'conformance.json'), 'utf8')) as { rules: Array<{ id: string; verdict: string }> };
    expect(report.rules.filter((row) => row.verdict === 'fail').map((row) => row.id)).toEqual([]);
    expect(watcher.output()).toMatch(/lines of syslog 127\.0\.0\.1:\d+ lost on the way/);
  } finally {
    await watcher.stop().catch(() => undefined);
    relay.close();
    await Promise.all(gateways.map((gateway) => gateway.stop()));
    await server.close();
  }
});
