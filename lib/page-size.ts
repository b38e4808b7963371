/**
 * The page size of GET /pets (spec: Limits / Page size) as the contract states it: minimum, maximum and
 * default of the `limit` parameter in fixtures/openapi.yaml. Server and suite read the same numbers.
 */
import { readFixtureYaml } from './fixtures.ts';

export interface PageSize {
  minimum: number;
  maximum: number;
  default: number;
}

interface Parameter {
  name: string;
  schema?: Partial<PageSize>;
}

function load(): PageSize {
  const document = readFixtureYaml('openapi.yaml') as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  const schema = document.paths['/pets']?.get?.parameters?.find((parameter) => parameter.name === 'limit')?.schema;
  const { minimum, maximum, default: fallback } = schema ?? {};
  if (typeof minimum !== 'number' || typeof maximum !== 'number' || typeof fallback !== 'number') {
    throw new Error('fixtures/openapi.yaml: GET /pets needs a limit parameter with minimum, maximum and default');
  }
  return { minimum, maximum, default: fallback };
}

export const PAGE_SIZE: Readonly<PageSize> = load();
