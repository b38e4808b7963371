/**
 * A command's exit codes, written once: its --help prints them and docs/reference/exit-codes.md is generated
 * from them, so the two cannot disagree.
 */
export interface ExitCode {
  code: number;
  when: string;
}

export function exitCodeHelp(codes: readonly ExitCode[]): string {
  return ['Exit codes:', ...codes.map(({ code, when }) => `  ${String(code).padEnd(4)}${when}`)].join('\n');
}
