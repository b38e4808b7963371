/**
 * The bytes of log lines gathered for one write. Lines are copied in from pieces already encoded, so no
 * text is joined and encoded again at write time; take() hands over what has gathered and starts a new
 * buffer, as a write to a pipe may still be reading the old one.
 */
export class LogBytes {
  private bytes: Buffer;
  private used = 0;

  constructor(private readonly size = 128 * 1024) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.used;
  }

  append(piece: Uint8Array): void {
    if (this.used + piece.length > this.bytes.length) this.grow(piece.length);
    this.bytes.set(piece, this.used);
    this.used += piece.length;
  }

  take(): Buffer {
    const taken = this.bytes.subarray(0, this.used);
    this.bytes = Buffer.allocUnsafe(this.size);
    this.used = 0;
    return taken;
  }

  private grow(needed: number): void {
    const larger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.used + needed));
    larger.set(this.bytes.subarray(0, this.used));
    this.bytes = larger;
  }
}
