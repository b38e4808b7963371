/**
 * A line of progress for long runs: redrawn in place on a terminal (a few times a second), and written as a
 * plain line every few seconds otherwise, so logs of CI runs show progress without thousands of lines.
 */
export class StatusLine {
  /** From the start, not from 0: a process that took five seconds to load (a busy machine) wrote a line at once. */
  private lastWrite = performance.now();
  private drawn = false;
  private readonly interactive: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly plainEveryMs = 5_000,
  ) {
    this.interactive = stream.isTTY === true;
  }

  /** Offers the current state; `render` is called only when a line is actually due. */
  update(render: () => string): void {
    const now = performance.now();
    const due = this.interactive ? 150 : this.plainEveryMs;
    if (now - this.lastWrite < due) return;
    this.lastWrite = now;
    if (this.interactive) {
      this.stream.write(`\r\u001b[2K${render()}`);
      this.drawn = true;
    } else {
      this.stream.write(`${render()}\n`);
    }
  }

  /** Clears the line drawn on a terminal, so what follows starts on a clean line. */
  clear(): void {
    if (this.interactive && this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }
}
