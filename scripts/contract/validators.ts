/**
 * `npm run contract:validators` compiles the contract's schemas (fixtures/openapi.yaml) into
 * lib/generated/contract-validators.ts: ajv's standalone code, so that a process validates bodies without loading
 * ajv's compiler (86 modules) and running it at start-up. The bench's judge on its 200,000-entry HAR took 4% less
 * time (its judging thread 5% less CPU, medians of ten alternating pairs). `--check` (run by npm test) writes nothing
 * and says when the file no longer agrees with the contract.
 *
 * Each component schema is compiled under its name, as lib/contract.ts asks for it, and each open field's schema of
 * ordinary values (x-acceptance-open) under ordinaryKey(). The options are the ones the contract was compiled with
 * at start-up before: every error (allErrors), no strict mode, formats from ajv-formats, and the schemas not checked
 * against the meta-schema here (npm run lint:contract and test/unit/lib/contract.spec.ts do that).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import { readFixtureYaml } from '../../lib/fixtures.ts';
import { ordinaryKey, schemasDigest } from '../../lib/contract-digest.ts';

const standaloneCode = standaloneModule as unknown as (ajv: Ajv2020, exports: Record<string, string>) => string;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const VALIDATORS_FILE = 'lib/generated/contract-validators.ts';
const REGENERATE = 'npm run contract:validators';

interface SchemaWithOpenFields {
  properties?: Record<string, { 'x-acceptance-open'?: { ordinary: object } }>;
}

/** The generated module's text for the contract's schemas. */
function contractValidatorsModule(schemas: Record<string, object>): string {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false, code: { source: true, esm: true } });
  addFormats(ajv);
  const exported: Record<string, string> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    ajv.addSchema({ ...(localRefs(schema) as object), $id: name });
    exported[name] = name;
  }
  const ordinary: string[] = [];
  for (const schema of Object.values(schemas) as SchemaWithOpenFields[]) {
    for (const property of Object.values(schema.properties ?? {})) {
      const open = property['x-acceptance-open'];
      if (!open) continue;
      const id = `ordinary${ordinary.length}`;
      ajv.addSchema({ ...(localRefs(open.ordinary) as object), $id: id });
      exported[id] = id;
      ordinary.push(`  [${JSON.stringify(ordinaryKey(open.ordinary))}, ${id}],`);
    }
  }
  return [
    `// Generated from fixtures/openapi.yaml by \`${REGENERATE}\` (scripts/contract/validators.ts): do not edit.`,
    '// @ts-nocheck: the code is ajv\'s standalone output; lib/contract.ts gives it its types.',
    "import { createRequire } from 'node:module';",
    // ajv's standalone code reaches its runtime helpers and the formats with require(), even as an ES module.
    'const require = createRequire(import.meta.url);',
    `export const SCHEMAS_DIGEST = ${JSON.stringify(schemasDigest(schemas))};`,
    standaloneCode(ajv, exported).replace(/^"use strict";/, ''),
    '/** The open fields\' schemas of ordinary values, by ordinaryKey(). */',
    'export const ordinaryValidators = new Map([',
    ...ordinary,
    ']);',
    '',
  ].join('\n');
}

/**
 * The schema as it is compiled: "#/components/schemas/Pet" as the name each schema is compiled under, and without the
 * contract's own x- keywords, which validate nothing (an open field's ordinary values are compiled on their own) and
 * would write its rules' IDs into the code (test/unit/lib/checks/registry.spec.ts).
 */
function localRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(localRefs);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key.startsWith('x-')) continue;
    result[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '') : localRefs(inner);
  }
  return result;
}

function main(): void {
  const check = process.argv.includes('--check');
  const file = fileURLToPath(new URL(`../../${VALIDATORS_FILE}`, import.meta.url));
  const document = readFixtureYaml('openapi.yaml') as { components: { schemas: Record<string, object> } };
  const generated = contractValidatorsModule(document.components.schemas);
  if (!check) {
    writeFileSync(file, generated);
    return;
  }
  const written = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (written === generated) return;
  process.stderr.write(`${VALIDATORS_FILE} ${written === undefined ? 'is missing' : 'is out of date with fixtures/openapi.yaml'}: run ${REGENERATE}\n`);
  process.exitCode = 1;
}

main();
