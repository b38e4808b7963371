/**
 * Debian's nginx as a gateway in front of a server, on 127.0.0.1 with its own prefix, pid and temp paths in a
 * temporary folder, writing its access log in the NDJSON exchange format with the log_format the how-to
 * gives (docs/how-to/judge-traffic.md), read from the page itself so that what it shows is what is proved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../lib/free-port.ts';
import { tempDir } from './support.ts';

export const NGINX_HINT = 'nginx not found: install it (Debian: apt-get install nginx; as root, bash scripts/ensure-nginx.sh does) to run the gateway-log test';

export function nginxPath(): string | undefined {
  return ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
}

/** The how-to's log_format: one line of the exchange format per request, the upstream's rate-limit headers included. */
export const EXCHANGE_LOG_FORMAT = howToLogFormat();

function howToLogFormat(): string {
  const page = readFileSync(new URL('../../docs/how-to/judge-traffic.md', import.meta.url), 'utf8');
  const statement = /```nginx\n(log_format petstore_exchange [\s\S]*?;)\n/.exec(page)?.[1];
  if (!statement) throw new Error('docs/how-to/judge-traffic.md has no nginx block starting with log_format petstore_exchange');
  return statement;
}

export interface Gateway {
  baseUrl: string;
  accessLog: string;
  stop(): Promise<void>;
}

export async function startNginx(upstreamBaseUrl: string): Promise<Gateway> {
  const binary = nginxPath();
  if (!binary) throw new Error(NGINX_HINT);
  const dir = tempDir('nginx');
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp), { mode: 0o777 });
  const port = await freePort();
  const upstream = new URL(upstreamBaseUrl);
  const accessLog = join(dir, 'access.log');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  ${EXCHANGE_LOG_FORMAT}
  server {
    listen 127.0.0.1:${port};
    access_log ${accessLog} petstore_exchange;
    location / {
      proxy_pass http://${upstream.host};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  await waitForPort(port, child, () => stderr);
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, '')}`,
    accessLog,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // SIGQUIT: nginx finishes its requests and writes its log before it exits.
        child.kill('SIGQUIT');
      }),
  };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${stderr().trim()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not listen on 127.0.0.1:${port} within 5 s: ${stderr().trim()}`);
}
