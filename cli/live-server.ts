/**
 * What a judge run live serves while it runs, the watcher's and the recorder's alike: GET / the live page (the
 * verdict so far and charts of the last hours), /conformance.json the period so far as the judge's report, and
 * /metrics the metrics for Prometheus (OpenMetrics). Every page and report has its keys redacted, as at exit.
 */
import { createServer } from 'node:http';
import type { LiveJudge } from '../harness/judge/live-judge.ts';
import type { CertifiedReport } from '../lib/verdicts/certificate.ts';
import { redactDeep, reportRedactor } from '../specs/reporter/report-redaction.ts';
import { livePage, type LiveWording } from './live-page.ts';

export interface LiveServing {
  live: LiveJudge;
  /** The report so far, as a certificate would count it (or not, for traffic that is no evidence). */
  report(): CertifiedReport;
  wording: LiveWording;
  /** Whose keys to redact. */
  env: NodeJS.ProcessEnv;
  /** Called before answering, so the metrics and charts are up to date (a source that refreshes on its own: nothing). */
  refresh?(): void;
}

export interface LiveServer {
  /** http://HOST:PORT, the port the one it got when 0 was asked. */
  origin: string;
  close(): Promise<void>;
}

/** Listens on host:port; rejects when it cannot (the port taken), with the error of listen(). */
export async function serveLive(serving: LiveServing, host: string, port: number): Promise<LiveServer> {
  const redactor = reportRedactor(serving.env);
  const { live } = serving;
  const server = createServer((request, response) => {
    serving.refresh?.();
    if (request.url === '/metrics') return void live.metrics.text().then((text) => response.writeHead(200, { 'content-type': live.metrics.contentType }).end(text));
    if (request.url !== '/' && request.url !== '/conformance.json') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('see / (the verdict so far), /conformance.json or /metrics\n');
    const report = redactDeep(serving.report(), redactor);
    if (request.url === '/conformance.json') return void response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(redactor.text(`${JSON.stringify(report, null, 2)}\n`));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(redactor.text(livePage(report, live, serving.wording, Date.now())));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  const address = server.address();
  return {
    origin: `http://${host}:${typeof address === 'object' && address ? address.port : port}`,
    // A scraper keeps its connection open: closed too, or close() would wait for it.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
