/**
 * Four bytes of a JSON string tested at once (read as a little-endian Int32) for the bytes its scan stops at: a quote,
 * a backslash, a control character, a byte beyond ASCII. Each test sets bit 7 of every byte that matches; a borrow can
 * set it in a byte above a match as well, never below, so the lowest bit set is the first byte that stops the scan.
 */

const HIGH_BITS = 0x80808080;

/** Bit 7 of each byte of `word` that is zero, and maybe of bytes above one. */
function zeroBytes(word: number): number {
  return (word - 0x01010101) & ~word & HIGH_BITS;
}

/** Where in `word` a string's scan stops: 0 where it passes all four bytes; else a mask whose lowest bit firstStop() reads. */
export function stopsIn(word: number): number {
  const belowSpace = (word - 0x20202020) & ~word;
  return (word | belowSpace | zeroBytes(word ^ 0x22222222) | zeroBytes(word ^ 0x5c5c5c5c)) & HIGH_BITS;
}

/** Which byte of the word (0 to 3) the mask of stopsIn(), not 0, says is the first to stop the scan. */
export function firstStop(stops: number): number {
  return (31 - Math.clz32(stops & -stops)) >> 3;
}
