/**
 * The environment variables a part reads, described where the part reads them (beside the defaults and checks
 * they describe), so docs/reference/settings.md is generated from the code and a test can hold each stated
 * check against the part's own reader.
 */
export interface SettingDoc {
  /** The variable, e.g. PETSTORE_QUOTA_BUDGET_SECONDS; `<PLAN>` stands for FREE, PRO, BUSINESS and ENTERPRISE. */
  name: string;
  /** What unset (or blank) means. */
  default: string;
  /** What a value must be; a value that is not is refused with one line naming the variable. */
  check: string;
  meaning: string;
  /** A value the check refuses: the tests give it to the part's reader and expect a refusal naming the variable. */
  refused?: string;
}

export interface SettingsOfPart {
  /** Who reads them, as a heading: "The conformance suite (npm run conformance, certify)". */
  part: string;
  settings: readonly SettingDoc[];
  /** Reads the settings from `env` as the part does at start; throws on a refused value. */
  read(env: Readonly<Record<string, string | undefined>>): unknown;
}
