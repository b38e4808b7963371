/**
 * How wide a text is in Verdana 11px, the font of shields.io badges, estimated per character so a badge can
 * be sized without a font on the machine that draws it. Widths in pixels for printable ASCII; anything else
 * counts as a wide letter, so a badge errs on the roomy side rather than clipping its text.
 */
const ASCII_WIDTHS: Readonly<Record<string, number>> = {
  ' ': 3.87, '!': 4.33, '"': 5.05, '#': 9, $: 7, '%': 11.84, '&': 7.99, "'": 2.95, '(': 5, ')': 5, '*': 7, '+': 9, ',': 4, '-': 5, '.': 4, '/': 5,
  '0': 7, '1': 7, '2': 7, '3': 7, '4': 7, '5': 7, '6': 7, '7': 7, '8': 7, '9': 7, ':': 5, ';': 5, '<': 9, '=': 9, '>': 9, '?': 6, '@': 11,
  A: 7.52, B: 7.54, C: 7.68, D: 8.48, E: 6.96, F: 6.32, G: 8.53, H: 8.27, I: 4.63, J: 5, K: 7.62, L: 6.12, M: 9.27, N: 8.23, O: 8.66, P: 6.63,
  Q: 8.66, R: 7.65, S: 7.52, T: 6.78, U: 8.05, V: 7.52, W: 10.88, X: 7.54, Y: 6.77, Z: 7.54, '[': 5, '\\': 5, ']': 5, '^': 9, _: 7, '`': 7,
  a: 6.61, b: 6.85, c: 5.73, d: 6.85, e: 6.55, f: 3.87, g: 6.85, h: 6.96, i: 3.02, j: 3.79, k: 6.51, l: 3.02, m: 10.7, n: 6.96, o: 6.68, p: 6.85,
  q: 6.85, r: 4.69, s: 5.73, t: 4.33, u: 6.96, v: 6.51, w: 8.98, x: 6.51, y: 6.51, z: 5.78, '{': 6.98, '|': 5, '}': 6.98, '~': 9,
};

const OTHER_CHARACTER = 9;

export function verdanaWidth(text: string): number {
  let width = 0;
  for (const char of text) width += ASCII_WIDTHS[char] ?? OTHER_CHARACTER;
  return width;
}
