/** docs/reference/report-formats.md: the JSON outputs a CI job reads, from their published schemas (schemas/). */
import { readFileSync } from 'node:fs';
import { generatedNotice, table } from './markdown.ts';

interface Property {
  description?: string;
  properties?: Record<string, Property>;
  required?: string[];
  const?: unknown;
  enum?: unknown[];
  type?: string | string[];
  items?: Property;
  $ref?: string;
}

interface Schema {
  $id: string;
  title: string;
  description: string;
  required?: string[];
  properties?: Record<string, Property>;
}

const FORMATS = [
  { file: 'conformance-report.schema.json', writtenBy: '`npm run conformance`, `certify`, the Action: `reports/conformance/conformance.json`; `npm run judge` and `record --judge`: `reports/judge/conformance.json`' },
  { file: 'matrix.schema.json', writtenBy: '`certify implementations.yaml`: `reports/certify/matrix.json`' },
  { file: 'load-summary.schema.json', writtenBy: '`npm run load`: `reports/load/summary.json`' },
  { file: 'replay-summary.schema.json', writtenBy: '`npm run replay`: `reports/replay/summary.json`' },
] as const;

export function reportFormatsPage(): string {
  const sections = FORMATS.map(({ file, writtenBy }) => {
    const schema = JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8')) as Schema;
    const properties = Object.entries(schema.properties ?? {});
    const format = schema.properties?.format?.const;
    const version = schema.properties?.formatVersion?.const;
    return [
      `## ${schema.title}`,
      '',
      `Written by ${writtenBy}. Schema: [\`schemas/${file}\`](../../schemas/${file}) (\`${schema.$id}\`); \`format\` is \`${String(format)}\`, \`formatVersion\` ${String(version)}.`,
      '',
      schema.description,
      '',
      table(
        ['Field', 'Type', 'Required', 'Meaning'],
        properties.map(([name, property]) => [`\`${name}\``, typeOf(property), schema.required?.includes(name) ? 'yes' : '', property.description ?? '']),
      ),
    ].join('\n');
  });
  return `${generatedNotice('the JSON Schemas in schemas/')}

# Report formats

Each JSON output is described by a JSON Schema (draft 2020-12) that a CI job can validate against before it
reads a field, e.g. with ajv: \`npx ajv-cli validate --spec=draft2020 -s schemas/conformance-report.schema.json -d reports/conformance/conformance.json\`.
Each output names its format and version (\`format\`, \`formatVersion\`). Within a version fields may be added,
so a consumer should ignore fields it does not know; a field is removed or changes meaning only with a new
\`formatVersion\`. The project's tests hold every report they make to these schemas.

The other outputs: \`index.html\` pages for people; \`junit.xml\` (JUnit XML) and \`results.json\` (Playwright's
JSON reporter) beside the conformance report, in their tools' own formats.

${sections.join('\n\n')}

${evidenceSection()}
`;
}

/** What every report's `evidence` holds, from the conformance report's schema (the load summary's is the same). */
function evidenceSection(): string {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/conformance-report.schema.json', import.meta.url), 'utf8')) as Schema & { properties: Record<string, Property> };
  const evidence = schema.properties.evidence!;
  const part = evidence.properties?.parts?.items ?? {};
  const rows = (object: Property): string[][] => Object.entries(object.properties ?? {}).map(([name, property]) => [`\`${name}\``, typeOf(property), object.required?.includes(name) ? 'yes' : '', property.description ?? '']);
  return [
    '## Evidence',
    '',
    "Every report (certify's and a merged run's `conformance.json`, judge's, load's `summary.json`) carries `evidence`: per part of a rule, when it was checked, against which target, with what result. `certify --evidence` counts it in a certificate ([certify in CI](../how-to/certify-in-ci.md#a-certificate-from-several-reports)); a report made with one carries `certificate` too, and its `verdict` is then the certificate's.",
    '',
    table(['Field', 'Type', 'Required', 'Meaning'], rows(evidence)),
    '',
    'Each of `parts`:',
    '',
    table(['Field', 'Type', 'Required', 'Meaning'], rows(part)),
  ].join('\n');
}

function typeOf(property: Property): string {
  if (property.const !== undefined) return `\`${JSON.stringify(property.const)}\``;
  if (property.enum) return property.enum.map((value) => `\`${String(value)}\``).join(', ');
  if (property.$ref) return property.$ref.endsWith('/verdict') ? 'a rule verdict' : 'object';
  const type = Array.isArray(property.type) ? property.type.join(' or ') : (property.type ?? 'any');
  return type === 'array' && property.items?.type ? `array of ${String(property.items.type)}` : type;
}
