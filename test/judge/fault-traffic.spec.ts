/**
 * The broken servers of the suite's own proof (test/suite/support/faults.ts), shown traffic: the shipped
 * sample's exchanges, each passed through a fault's edits as its fault proxy would pass them, then judged.
 * Every fault that traffic like the sample's can show fails the rule it breaks (or one it cannot help
 * breaking too), and no other; a fault of a rule traffic cannot judge (VER-1: the operations moved away)
 * fails the rules its answers break instead; the correct server's sample fails nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { HarEntry } from '../../lib/capture/types.ts';
import { NEEDS } from '../../harness/judge/report.ts';
import { FAULTS, type Fault } from '../suite/support/faults.ts';
import { isProxyResponse, type ProxyRequest, type ProxyResponse } from '../support/fault-proxy.ts';
import { harEntries, SAMPLE_HAR } from '../replay/support.ts';
import { failures, judged, tempDir } from './support.ts';

const SAMPLE = harEntries(SAMPLE_HAR);

/**
 * The sample as the fault's server would have answered it, or undefined when the fault needs to ask the
 * upstream again (a request rewritten), which a recording cannot.
 */
async function asAnsweredBy(fault: Fault): Promise<HarEntry[] | undefined> {
  const transform = fault.proxy?.({ upstreamBaseUrl: 'http://127.0.0.1:9/v1' });
  if (!transform) return undefined;
  const edited: HarEntry[] = [];
  for (const entry of SAMPLE) {
    const url = new URL(entry.request.url);
    const request: ProxyRequest = { method: entry.request.method, path: url.pathname + url.search, headers: lower(entry.request.headers), body: entry.request.postData?.text ?? '' };
    let response: ProxyResponse = { status: entry.response.status, headers: lower(entry.response.headers), body: entry.response.content.text ?? '' };
    try {
      const forwarded = transform.request ? await transform.request(request) : request;
      if (isProxyResponse(forwarded)) response = forwarded;
      else if (forwarded.path !== request.path || forwarded.method !== request.method || forwarded.body !== request.body) return undefined;
      if (transform.response && !isProxyResponse(forwarded)) response = await transform.response(response, request);
    } catch {
      // The fault asks the upstream itself (no upstream answers here): a recording cannot show it.
      return undefined;
    }
    edited.push({
      ...entry,
      response: { ...entry.response, status: response.status, headers: Object.entries(response.headers).map(([name, value]) => ({ name, value })), content: { ...entry.response.content, text: response.body } },
    });
  }
  return edited;
}

function lower(headers: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));
}

async function judgeEntries(entries: readonly HarEntry[]): Promise<Record<string, string>> {
  const file = join(tempDir('fault'), 'fault.har.ndjson');
  writeFileSync(file, `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`);
  return failures(await judged(file));
}

test("the correct server's sample fails nothing", async () => {
  expect(await judgeEntries(SAMPLE)).toEqual({});
});

test('every broken server whose fault the sample traffic shows fails that rule, and no other', async () => {
  const caught: string[] = [];
  const wrong: string[] = [];
  for (const fault of FAULTS) {
    const entries = await asAnsweredBy(fault);
    if (!entries) continue;
    const failed = Object.keys(await judgeEntries(entries));
    if (failed.length === 0) continue;
    const allowed = new Set([fault.rule, ...(fault.alsoBreaks ?? [])]);
    if (NEEDS[fault.rule] === undefined) caught.push(`${fault.id} (${fault.rule}, which traffic cannot judge) → ${failed.join(', ')}`);
    else if (failed.some((rule) => allowed.has(rule)) && failed.every((rule) => allowed.has(rule))) caught.push(`${fault.id} → ${failed.join(', ')}`);
    else wrong.push(`${fault.id} (breaks ${fault.rule}) → ${failed.join(', ')}`);
  }
  expect(wrong).toEqual([]);
  test.info().annotations.push({ type: 'caught', description: caught.join('; ') });
  expect(caught.length, caught.join('\n')).toBeGreaterThanOrEqual(15);
});
