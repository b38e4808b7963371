/**
 * The implementations matrix page, drawn from hand-built matrices (support/matrix-builder.ts): what it says
 * first, how it marks disagreements and expectations, that nothing from the matrix becomes markup, and, in
 * Chromium, that it fetches nothing, filters without JavaScript and prints every row.
 */
import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { renderMatrix } from '../../matrix/render-html.ts';
import { chromiumPath, INSTALL_HINT, launchChromium } from '../support/chromium.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { AGREEING, DISAGREEING, quietMatrix, sampleMatrix, SECTIONS } from './support/matrix-builder.ts';

/** The opening tag of a rule's row, which carries its classes. */
function rowTag(page: string, id: string): string {
  const tag = new RegExp(`<tr id="rule-${id}"[^>]*>`).exec(page)?.[0];
  if (!tag) throw new Error(`the page has no row for ${id}`);
  return tag;
}

/** The cells of a rule's row, in column order, as HTML. */
function rowCells(page: string, id: string): string[] {
  const start = page.indexOf(rowTag(page, id));
  const rowHtml = page.slice(start, page.indexOf('</tr>', start));
  return [...rowHtml.matchAll(/<td class="cell[^]*?<\/td>/g)].map((match) => match[0]);
}

test('names, versions, problems, gists and reasons from the matrix are escaped, never markup', () => {
  const page = renderMatrix(sampleMatrix());
  expect(page, 'the page carries no script at all').not.toContain('<script');
  expect(page).not.toContain('<img src=x');
  expect(page).toContain('&#60;script&#62;alert(&#34;pwned&#34;)&#60;/script&#62; &#39;quoted&#39; &#38; &#60;img src=x onerror=alert(1)&#62;');
  expect(page, 'a javascript: link from the matrix is dropped').not.toMatch(/href="\s*javascript:/i);
});

test('rows where implementations disagree carry the disagreement class and a "differs" mark; the others neither', () => {
  const page = renderMatrix(sampleMatrix());
  for (const id of DISAGREEING) {
    expect(rowTag(page, id), id).toContain('class="rule-row disagreement"');
  }
  for (const id of AGREEING) expect(rowTag(page, id), id).toContain('class="rule-row"');
  expect(page.match(/class="badge differs"/g)).toHaveLength(DISAGREEING.length);
});

test('the "only disagreements" filter is a checkbox and a screen-only CSS rule, with no script', () => {
  const page = renderMatrix(sampleMatrix());
  expect(page).toContain('<input type="checkbox" id="only-disagreements">');
  expect(page).toContain(`Show only the ${DISAGREEING.length} rules where implementations disagree`);
  expect(page).toMatch(/@media screen \{\s*body:has\(#only-disagreements:checked\) table\.matrix tr\.rule-row:not\(\.disagreement\) \{ display: none; \}/);
});

test('a cell shows its verdict, the expectation it meets or breaks, and links to the evidence', () => {
  const page = renderMatrix(sampleMatrix());
  const [, expected] = rowCells(page, 'AUTH-2');
  expect(expected).toContain('class="cell v-fail expected"');
  expect(expected).toContain('fail</span> <span class="expectation">(expected)</span>');
  expect(expected, 'the tooltip has the detail, then why it is expected').toMatch(/title="expected 401, got 200 [^"]*\n\nListed as an expected failure: tokens are not checked yet /);
  const [, regression] = rowCells(page, 'LIST-1');
  expect(regression, 'a failure no expectation lists is marked as the regression it is').toContain('class="cell v-fail regression"');
  expect(regression).toContain('fail</span> <span class="expectation">(regression)</span>');
  expect(regression).toContain('<a href="shady/index.html#rule-LIST-1">');
  const [, nowPasses] = rowCells(page, 'RL-1');
  expect(nowPasses).toContain('class="cell v-pass expected now-passes"');
  expect(nowPasses).toContain('(now passes)');
});

test('a GAP row shows what each implementation does, side by side', () => {
  const page = renderMatrix(sampleMatrix());
  const [reference, shady, down] = rowCells(page, 'RL-GAP-1');
  expect(reference).toContain('<span class="gist">fixed windows</span>');
  expect(shady).toContain('<span class="gist">&#60;script&#62;');
  expect(shady, 'its javascript: link is dropped, its text kept').not.toContain('<a ');
  expect(down).toContain('no report');
});

test('an implementation that could not be certified has a "no report" cell in every row and its problem at the top', () => {
  const sample = sampleMatrix();
  const page = renderMatrix(sample);
  for (const matrixRow of sample.rows) expect(rowCells(page, matrixRow.id)[2], matrixRow.id).toContain('class="cell v-no-report"');
  expect(page).toMatch(/id="not-certified"[^]*<strong>down<\/strong>: connect ECONNREFUSED 127\.0\.0\.1:9 &#60;script&#62;/);
});

test('the page opens with the expectations: regressions, then passes to remove, then what could not be certified, then the rest', () => {
  const page = renderMatrix(sampleMatrix());
  expect(page).toContain('Not as expected: 1 regression, 1 unexpected pass, 1 not certified');
  const order = ['id="regressions"', 'id="now-passes"', 'id="not-certified"', 'class="implementations"', 'id="changes"', 'class="matrix"'].map((marker) => page.indexOf(marker));
  expect(order.every((position) => position > 0), 'every part is there').toBe(true);
  expect(order, 'in that order').toEqual([...order].sort((a, b) => a - b));
  expect(page).toMatch(/id="regressions"[^]*<strong>shady &#60;script[^<]*<\/strong>: <a href="#rule-LIST-1">LIST-1<\/a>/);
  expect(page).toMatch(/id="now-passes"[^]*<a href="#rule-RL-1">RL-1<\/a> <span class="muted">in <code>expectations\/shady.yaml<\/code>/);
});

test('with a baseline, each implementation says what changed since; without one, nothing of it shows', () => {
  const page = renderMatrix(sampleMatrix());
  const changes = page.slice(page.indexOf('id="changes"'), page.indexOf('<h2>Rules</h2>'));
  expect(changes).toContain('<code>baseline/matrix.json</code>');
  expect(changes).toMatch(/<h3>reference<\/h3><p class="muted">No change\.<\/p>/);
  expect(changes).toMatch(/Regressed \(1\)[^]*LIST-1<\/a>: <span class="before">pass<\/span> → <span class="after">fail<\/span>/);
  expect(changes).toMatch(/Now pass \(1\)[^]*RL-1<\/a>: <span class="before">fail<\/span> → <span class="after">pass<\/span>/);
  expect(changes).toMatch(/GAP behaviour changed \(1\)[^]*RL-GAP-1<\/a>: <span class="before">fixed windows<\/span> → <span class="after">&#60;script&#62;/);
  expect(changes).toMatch(/<h3>down<\/h3><p><span class="badge info">new<\/span>/);

  const quiet = renderMatrix(quietMatrix());
  expect(quiet).not.toContain('id="changes"');
  expect(quiet).toContain('As expected: all 1 implementation certified');
  expect(quiet).not.toContain('id="regressions"');
});

test('the page renders in Chromium, fetches nothing, filters to the disagreements without JavaScript, and prints every row', async ({}, testInfo) => {
  skipWithout(chromiumPath() !== undefined, INSTALL_HINT);
  const file = testInfo.outputPath('index.html');
  writeFileSync(file, renderMatrix(sampleMatrix()));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`file://${file}`);

    await expect(page.locator('#regressions')).toBeVisible();
    await expect(page.locator('#regressions')).toContainText('LIST-1');
    await expect(page.locator('.impl-badge img')).toHaveCount(3);
    expect(await page.locator('.impl-badge img').evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0)), 'every badge image decodes').toEqual([true, true, true]);
    const everyRow = [...AGREEING, ...DISAGREEING];
    for (const id of everyRow) await expect(page.locator(`#rule-${id}`), id).toBeVisible();
    await testInfo.attach('matrix.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await page.getByLabel(/Show only the 3 rules/).check();
    for (const id of AGREEING) await expect(page.locator(`#rule-${id}`), `${id} agrees, so it hides`).toBeHidden();
    for (const id of DISAGREEING) await expect(page.locator(`#rule-${id}`), `${id} disagrees, so it stays`).toBeVisible();
    await expect(page.locator('tr.section-row', { hasText: SECTIONS.errors }), 'a section with no disagreement hides whole').toBeHidden();
    await expect(page.locator('tr.section-row', { hasText: SECTIONS.listing })).toBeVisible();
    await testInfo.attach('matrix-disagreements.png', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });

    await page.emulateMedia({ media: 'print' });
    for (const id of everyRow) await expect(page.locator(`#rule-${id}`), `${id} prints though the filter is on`).toBeVisible();
    await expect(page.locator('.filter')).toBeHidden();

    expect(requested, 'the page requests nothing but itself (the badges are data URLs)').toEqual([`file://${file}`]);
    await context.close();
  } finally {
    await browser.close();
  }
});
