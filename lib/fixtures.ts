import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseYamlCached } from './yaml-cache.ts';

/** Absolute path of a file under fixtures/, wherever the process was started from. */
export function fixturePath(...segments: string[]): string {
  return fileURLToPath(new URL(['../fixtures', ...segments].join('/'), import.meta.url));
}

const parsed = new Map<string, unknown>();

/**
 * A YAML file under fixtures/, read once per process (the contract and the page size both read openapi.yaml) and
 * parsed once per text (lib/yaml-cache.ts). Shared: whoever reads it copies before changing anything.
 */
export function readFixtureYaml(...segments: string[]): unknown {
  const path = fixturePath(...segments);
  if (!parsed.has(path)) parsed.set(path, parseYamlCached(readFileSync(path, 'utf8')));
  return parsed.get(path);
}
