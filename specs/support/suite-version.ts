/** The suite's version, from package.json: reports name it, and the generated project's default seed is drawn from it. */
import { readFileSync } from 'node:fs';

export const SUITE_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
