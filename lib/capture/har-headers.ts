/**
 * A HAR entry's headers as the judge reads them: a record by lower-case name, a header written again joined to the
 * first with ", " (as a proxy may combine them), a value null or absent read as "". judged-fields.ts builds it straight
 * from where the headers sit in the entry's bytes, with no {name, value} object per pair and no second pass over them
 * (those had cost the judging thread about a tenth of building each exchange); harness/judge/capture-entry.ts builds
 * the same record from a list JSON.parse gave, and takes this one as it is.
 */
export class HarHeaders {
  constructor(
    readonly record: Record<string, string>,
    /** How many pairs the list held. */
    readonly count: number,
  ) {}
}

/** A header's value as text: "" for one null or absent. */
export function headerText(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** Adds a header to `record` by its lower-case name: a repeated header joins the first. */
export function addHeaderText(record: Record<string, string>, lowerCaseName: string, text: string): void {
  const earlier = record[lowerCaseName];
  record[lowerCaseName] = earlier === undefined ? text : `${earlier}, ${text}`;
}
