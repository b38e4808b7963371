import { expect, test } from '@playwright/test';
import { firstStop, stopsIn } from '../../lib/capture/string-stops.ts';

/** Whether a string's scan stops at `code`, as the walk's byte-at-a-time look-up says. */
const stops = (code: number): boolean => code < 0x20 || code === 0x22 || code === 0x5c || code >= 0x80;

test('four bytes tested at once stop at the first byte a string scan stops at, whatever stands above it', () => {
  const wrong: string[] = [];
  const word = new DataView(new ArrayBuffer(4));
  // Every byte at every place, below and above bytes that stop the scan too (a borrow sets bits above a match only).
  for (const filler of [0x61, 0x00, 0x1f, 0x22, 0x5c, 0x80, 0xff, 0x20, 0x7f]) {
    for (let place = 0; place < 4; place++) {
      for (let code = 0; code < 256; code++) {
        const bytes = [0x61, 0x61, 0x61, 0x61].map((ordinary, at) => (at < place ? ordinary : at === place ? code : filler));
        bytes.forEach((byte, at) => word.setUint8(at, byte));
        const first = bytes.findIndex(stops);
        const mask = stopsIn(word.getInt32(0, true));
        const found = mask === 0 ? -1 : firstStop(mask);
        if (found !== first) wrong.push(`${bytes.map((byte) => byte.toString(16)).join(' ')}: ${found}, not ${first}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});
