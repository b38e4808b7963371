/** Links built from other people's data: relative and web links pass, anything that could run script does not. */
import { expect, test } from '@playwright/test';
import { safeHref } from '../../../lib/html.ts';

test('relative, fragment and http(s) links are kept as written', () => {
  for (const href of ['shady/index.html#rule-LIST-1', '#rule-AUTH-2', '../report.html', 'https://example.org/x', 'HTTP://example.org/']) {
    expect(safeHref(href), href).toBe(href);
  }
});

test('javascript:, data: and other schemes are dropped, however a browser would still read them', () => {
  for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', '\u0001javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:x']) {
    expect(safeHref(href), JSON.stringify(href)).toBeUndefined();
  }
});
