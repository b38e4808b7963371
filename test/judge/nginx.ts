/**
 * Debian's nginx as a gateway in front of a server, running the how-to's configuration as the page writes it
 * (docs/how-to/judge-traffic.md, the code block marked "tested: nginx http block"): TLS and HTTP/2, the API
 * under a path prefix, the key map, the plan map and the log_format. Only what must differ on a test machine
 * is replaced (the upstream's address, the port, the certificate, the key file and the log's path), each
 * replacement required to find its text, so the page cannot drift from what is run. nginx gets its own
 * prefix, pid, error log and temp paths in a temporary folder.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, constants } from 'node:http2';
import { join } from 'node:path';
import { freePort } from '../../lib/free-port.ts';
import { tempDir } from './support.ts';

export const NGINX_HINT = 'nginx not found: install it (Debian: apt-get install nginx; as root, bash scripts/ensure-nginx.sh does) to run the gateway-log test';
export const OPENSSL_HINT = 'openssl not found: the gateway-log test makes its TLS certificate with it';

export function nginxPath(): string | undefined {
  return ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
}

export function opensslPath(): string | undefined {
  return ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((path) => existsSync(path));
}

const MARK = '<!-- tested: nginx http block -->';

/** The how-to's http {} block, as written. */
export function howToHttpBlock(): string {
  const page = readFileSync(new URL('../../docs/how-to/judge-traffic.md', import.meta.url), 'utf8');
  const at = page.indexOf(MARK);
  const block = at < 0 ? undefined : /^\s*```nginx\n([\s\S]*?)\n```/.exec(page.slice(at + MARK.length))?.[1];
  if (!block) throw new Error(`docs/how-to/judge-traffic.md has no \`\`\`nginx block after "${MARK}"`);
  return block;
}

/** The how-to's placeholders and what each becomes here. */
interface Site {
  /** host:port of each of the service's nodes. */
  upstreams: readonly string[];
  port: number;
  /** A second, plain-HTTP port for tools that cannot trust the test's certificate (the suite, Locust). */
  plainPort: number | undefined;
  certificate: string;
  certificateKey: string;
  keyMap: string;
  accessLog: string;
}

function localised(block: string, site: Site): string {
  const replacements: Array<[string, string]> = [
    ['server 10.0.0.5:8080;', site.upstreams.map((upstream) => `server ${upstream};`).join('\n        ')],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${site.port} ssl http2;${site.plainPort === undefined ? '' : `\n        listen 127.0.0.1:${site.plainPort};`}`],
    ['/etc/nginx/tls/api.example.com.crt', site.certificate],
    ['/etc/nginx/tls/api.example.com.key', site.certificateKey],
    ['/etc/nginx/petstore-keys.map', site.keyMap],
    ['/var/log/nginx/petstore.log', site.accessLog],
  ];
  let text = block;
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`the how-to's nginx block no longer holds "${from}": update test/judge/nginx.ts with the page`);
    text = text.split(from).join(to);
  }
  return text;
}

export interface Gateway {
  /** The service's base URL through the gateway: https, HTTP/2, under the how-to's prefix. */
  baseUrl: string;
  /** The certificate the gateway presents, to trust it. */
  ca: string;
  /** The same over plain HTTP/1.1, when asked for: same location, same log. */
  plainBaseUrl: string | undefined;
  accessLog: string;
  /** nginx's pid file: `kill -USR1 $(cat …)` has it reopen its log after logrotate renamed it. */
  pidFile: string;
  stop(): Promise<void>;
}

/**
 * nginx with the how-to's configuration in front of `upstreamBaseUrl` (whose path must be /v1; several: the nodes
 * of one service, balanced in turn), knowing `keys` by name; `plain` adds a plain-HTTP port to the same server;
 * `accessLog` is where the log goes in place of a file of its own (`syslog:server=…`), `edit` what another page
 * adds to the http block.
 */
export async function startNginx(upstreamBaseUrl: string | readonly string[], keys: Readonly<Record<string, string>>, { plain = false, accessLog: logTo, edit = (http: string) => http }: { plain?: boolean; accessLog?: string; edit?: (http: string) => string } = {}): Promise<Gateway> {
  const binary = nginxPath();
  if (!binary) throw new Error(NGINX_HINT);
  const openssl = opensslPath();
  if (!openssl) throw new Error(OPENSSL_HINT);
  const upstreams = (typeof upstreamBaseUrl === 'string' ? [upstreamBaseUrl] : upstreamBaseUrl).map((baseUrl) => {
    const upstream = new URL(baseUrl);
    if (upstream.pathname.replace(/\/+$/, '') !== '/v1') throw new Error(`the how-to's gateway serves the upstream's /v1 under /petstore/v1; ${baseUrl} is not at /v1`);
    return upstream.host;
  });
  const dir = tempDir('nginx');
  // nginx's workers run as another user (nobody): they must reach the temp paths, where a large request body goes.
  chmodSync(dir, 0o711);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(join(dir, temp));
    chmodSync(join(dir, temp), 0o777);
  }
  const certificate = join(dir, 'gateway.crt');
  const certificateKey = join(dir, 'gateway.key');
  execFileSync(openssl, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', certificateKey, '-out', certificate], { stdio: 'ignore' });
  const keyMap = join(dir, 'petstore-keys.map');
  writeFileSync(keyMap, Object.entries(keys).map(([key, name]) => `${JSON.stringify(key)} ${JSON.stringify(name)};\n`).join(''), { mode: 0o600 });
  const port = await freePort();
  const plainPort = plain ? await freePort() : undefined;
  const accessLog = logTo ?? join(dir, 'access.log');
  const http = edit(localised(howToHttpBlock(), { upstreams, port, plainPort, certificate, certificateKey, keyMap, accessLog }));
  // The test's own paths, where a packaged nginx would use /var/lib/nginx: inside http {}, before the page's directives.
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind, i) => `    ${kind}_temp_path ${join(dir, ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'][i] as string)};`).join('\n');
  const httpOpens = /^http \{$/m;
  if (!httpOpens.test(http)) throw new Error("the how-to's nginx block has no line \"http {\"");
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
${http.replace(httpOpens, `http {\n${temps}`)}
`,
  );
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', `daemon off; pid ${join(dir, 'nginx.pid')};`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const ca = readFileSync(certificate, 'utf8');
  await waitForTls(port, ca, child, () => `${stderr}${readIfThere(join(dir, 'error.log'))}`);
  return {
    baseUrl: `https://127.0.0.1:${port}/petstore/v1`,
    ca,
    plainBaseUrl: plainPort === undefined ? undefined : `http://127.0.0.1:${plainPort}/petstore/v1`,
    accessLog,
    pidFile: join(dir, 'nginx.pid'),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        // SIGQUIT: nginx finishes its requests and writes its log before it exits.
        child.kill('SIGQUIT');
      }),
  };
}

function readIfThere(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request over HTTP/2 (TLS, ALPN h2), as a browser or a modern client reaches the gateway. */
export async function h2Request(baseUrl: string, ca: string, request: { method?: string; path: string; authorization?: string; body?: string }): Promise<Answer> {
  const url = new URL(`${baseUrl}${request.path}`);
  const session = connect(url.origin, { ca });
  try {
    return await new Promise<Answer>((resolve, reject) => {
      session.once('error', reject);
      const headers: Record<string, string> = { [constants.HTTP2_HEADER_METHOD]: request.method ?? 'GET', [constants.HTTP2_HEADER_PATH]: url.pathname + url.search };
      if (request.authorization !== undefined) headers.authorization = request.authorization;
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const stream = session.request(headers, { endStream: request.body === undefined });
      let status = 0;
      const answerHeaders: Record<string, string> = {};
      stream.on('response', (received) => {
        status = Number(received[constants.HTTP2_HEADER_STATUS]);
        for (const [name, value] of Object.entries(received)) if (!name.startsWith(':') && value !== undefined) answerHeaders[name] = String(value);
      });
      let body = '';
      stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      stream.on('end', () => resolve({ status, headers: answerHeaders, body }));
      stream.on('error', reject);
      if (request.body !== undefined) stream.end(request.body);
    });
  } finally {
    session.close();
  }
}

async function waitForTls(port: number, ca: string, child: ChildProcess, errors: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${errors().trim()}`);
    try {
      await h2Request(`https://127.0.0.1:${port}`, ca, { path: '/' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not answer on 127.0.0.1:${port} within 5 s: ${errors().trim()}`);
}
