/**
 * Days this machine's runs used up, remembered from one run to the next. A key's day that a run was admitted
 * whole ends in a refusal that asks it to wait until the day's end; the next run the same day meets that refusal
 * first, and its headers may name the minute (Limit 60, Remaining 20, Reset seconds away), as a ban's do. Its wait
 * ending at the very moment an earlier run's count ended the key's day is what tells it from a ban: the day is
 * spent. Kept in the system's temporary folder, one file per key and target, named by their SHA-256 (never the key
 * itself), holding when the day ends; a file whose day has ended is removed when read.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const FOLDER = path.join(tmpdir(), 'petstore-conformance-days-used-up');
/** Real milliseconds two ends of one day may lie apart, each read from a Retry-After in whole seconds, besides a second of the target's clock. */
const SLACK_MS = 500;

const fileOf = (baseUrl: string, key: string): string => path.join(FOLDER, createHash('sha256').update(`${baseUrl}\n${key}`).digest('hex'));

/** Remembers that this run used up the key's day at the target, until `untilMs` (real time). */
export function rememberDayUsedUp(baseUrl: string, key: string, untilMs: number): void {
  mkdirSync(FOLDER, { recursive: true });
  writeFileSync(fileOf(baseUrl, key), String(Math.round(untilMs)));
}

/** Whether an earlier run used up the key's day at the target, ending at `untilMs` (real time) within `secondMs`, a second of the target's clock in real ms. */
export function dayUsedUpEarlier(baseUrl: string, key: string, untilMs: number, secondMs: number): boolean {
  const file = fileOf(baseUrl, key);
  let recorded: number;
  try {
    recorded = Number(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (!(recorded > Date.now())) {
    rmSync(file, { force: true });
    return false;
  }
  return Math.abs(recorded - untilMs) <= secondMs + SLACK_MS;
}
