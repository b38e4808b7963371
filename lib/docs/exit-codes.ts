/**
 * The exit codes of every command, written once: one code, one meaning, whichever command exits with it
 * (EXIT_MEANINGS), and each command's own words for when it does (ExitCode lists). Each --help prints its
 * list and docs/reference/exit-codes.md is generated from both, so none of them can disagree;
 * test/docs/vocabulary.spec.ts holds every command's list to the table.
 */
export const EXIT = {
  /** Conforming, or the command did what it was asked and nothing broke. */
  ok: 0,
  /** Not conforming: a rule the job is failed on was broken. */
  broken: 1,
  /** Bad input: one line naming it and the forms it takes; nothing ran. */
  badInput: 2,
  /** Not certified: nothing failed, but not everything the verdict needs was checked. */
  notCertified: 3,
  /** A fault of the tool itself: one line, and a bug to report. */
  fault: 4,
  /** Ctrl-C (SIGINT): 128 + 2, as a shell reports it. */
  interrupted: 130,
} as const;

export type ExitCodeNumber = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, for every command alike. */
export const EXIT_MEANINGS: Readonly<Record<ExitCodeNumber, string>> = {
  0: 'Conforming, or done with nothing broken',
  1: 'Not conforming: a rule the job fails on was broken',
  2: 'bad input (a flag, a file, a folder, a setting, a port, an unreachable target): one line naming it and the forms it takes, before any work starts',
  3: 'Not certified: nothing failed, but not everything the verdict needs was checked',
  4: 'a fault of the tool itself, in one line: a bug, please report it',
  130: 'interrupted (Ctrl-C)',
};

export interface ExitCode {
  code: ExitCodeNumber;
  when: string;
}

export function exitCodeHelp(codes: readonly ExitCode[]): string {
  return ['Exit codes:', ...codes.map(({ code, when }) => `  ${String(code).padEnd(4)}${when}`)].join('\n');
}
