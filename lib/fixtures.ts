import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Absolute path of a file under fixtures/, wherever the process was started from. */
export function fixturePath(...segments: string[]): string {
  return fileURLToPath(new URL(['../fixtures', ...segments].join('/'), import.meta.url));
}

/** Reads and parses a YAML file under fixtures/. */
export function readFixtureYaml(...segments: string[]): unknown {
  return parse(readFileSync(fixturePath(...segments), 'utf8'));
}
