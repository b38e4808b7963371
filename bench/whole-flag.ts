/** A benchmark's whole-number flag (--rounds, --seconds, …): its value, or one line on stderr and exit code 2. */
export function wholeFlag(text: string | undefined, name: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    process.stderr.write(`bench: --${name} must be a whole number of at least 1, got "${text}"\n`);
    process.exit(2);
  }
  return value;
}
