/**
 * The certification badge: its four states say what they mean in words and in the colours shields.io
 * readers know, a certificate's badge says how old its earlier evidence is and whether a scope was declared,
 * its text is escaped, and it is an SVG a browser parses on its own.
 */
import { expect, test } from '@playwright/test';
import { makeCertificate } from '../../lib/verdicts/certificate.ts';
import type { EvidenceReport } from '../../lib/verdicts/evidence-files.ts';
import { renderBadge, type BadgeSubject } from '../../matrix/badge.ts';
import { badgeSubject } from '../../matrix/build-matrix.ts';
import type { MatrixImplementation } from '../../matrix/model.ts';
import { asEvidence, certifiedRun, DAY_MS } from '../support/certified-run.ts';
import { chromiumPath, INSTALL_HINT, launchChromium } from '../support/chromium.ts';
import { skipWithout } from '../support/installed-tools.ts';
import { HOSTILE, implementation } from './support/matrix-builder.ts';

interface BadgeCase {
  state: string;
  implementation: MatrixImplementation;
  text: string;
  colour: string;
}

const CONFORMING: BadgeCase = { state: 'conforming', implementation: implementation('good'), text: 'conforming', colour: '#4c1' };
const NOT_CONFORMING: BadgeCase = {
  state: 'not conforming',
  implementation: implementation('bad', { state: 'not-conforming', verdictLabel: 'Not conforming', must: { held: 38, checked: 40, total: 40 } }),
  text: '38/40 MUST',
  colour: '#e05d44',
};
const PARTLY_CHECKED: BadgeCase = {
  state: 'not certified, partly checked',
  implementation: implementation('partial', { state: 'incomplete', verdictLabel: 'Not certified', must: { held: 38, checked: 38, total: 40 } }),
  text: 'not certified 38/40 MUST',
  colour: '#dfb317',
};
const COULD_NOT_CERTIFY: BadgeCase = {
  state: 'could not certify',
  implementation: implementation('down', { state: undefined, verdictLabel: 'Could not certify', problem: 'did not start', must: undefined }),
  text: 'not certified',
  colour: '#9f9f9f',
};
const CASES = [CONFORMING, NOT_CONFORMING, PARTLY_CHECKED, COULD_NOT_CERTIFY];

/** The badge's visible texts (the shadow copies are aria-hidden), left then right. */
function texts(svg: string): string[] {
  return [...svg.matchAll(/<text x="[\d.]+" y="14"[^>]*>([^<]*)<\/text>/g)].map((match) => match[1] ?? '');
}

for (const { state, implementation: subject, text, colour } of CASES) {
  test(`a ${state} implementation's badge reads "Pet Store 1.0.0 | ${text}" on ${colour}`, () => {
    const svg = renderBadge(subject, '1.0.0');
    expect(texts(svg)).toEqual(['Pet Store 1.0.0', text]);
    expect(svg, 'the right half, under the label').toMatch(new RegExp(`<rect width="\\d+" height="20" rx="3" fill="${colour}"/>`));
    expect(svg).toContain(`<title>Pet Store 1.0.0: ${text}</title>`);
    expect(svg).toContain(`aria-label="Pet Store 1.0.0: ${text}"`);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
  });
}

const STAGING = 'https://staging.example.com/v1';
const NOW = new Date('2026-11-24T12:00:00Z');
const ago = (days: number): Date => new Date(NOW.getTime() - days * DAY_MS);

/** A commit's run that checked `day` itself (or skipped it), certified with earlier reports and a scope. */
function certified(day: 'passed' | 'skipped', evidence: readonly EvidenceReport[], outOfScope: string[] = []): BadgeSubject {
  const commit = certifiedRun(STAGING, NOW, day);
  const { certificate, verdict } = makeCertificate(commit, evidence, { now: NOW, maxAge: '7d', maxAgeMs: 7 * DAY_MS, outOfScope });
  return badgeSubject({ ...commit, verdict, certificate });
}

const night = (days: number): EvidenceReport => asEvidence(certifiedRun(STAGING, ago(days), 'passed', 'nightly run'), 'evidence/night/conformance.json');

const PROVENANCE_CASES: Array<{ state: string; subject: BadgeSubject; text: string; colour: string; title: string }> = [
  { state: 'run alone', subject: certified('passed', []), text: 'conforming', colour: '#4c1', title: 'conforming' },
  { state: 'run alone, with a night that was not needed', subject: certified('passed', [night(8)]), text: 'conforming', colour: '#4c1', title: 'conforming' },
  {
    state: 'day from a night 4 days old',
    subject: certified('skipped', [night(4)]),
    text: 'conforming · evidence ≤ 4d',
    colour: '#4c1',
    title: 'conforming, on evidence that includes earlier reports up to 4d old',
  },
  { state: 'day from a night 3½ days old, rounded up', subject: certified('skipped', [night(3.5)]), text: 'conforming · evidence ≤ 4d', colour: '#4c1', title: 'conforming, on evidence that includes earlier reports up to 4d old' },
  {
    state: 'day declared out of scope',
    subject: certified('skipped', [], ['PLAN-FREE:day']),
    text: 'conforming within scope',
    colour: '#97ca00',
    title: 'conforming within the declared scope (what it leaves out is not checked)',
  },
  {
    state: 'scoped, with a night that covered nothing this run did not',
    subject: certified('skipped', [asEvidence(certifiedRun(STAGING, ago(2), 'skipped', 'nightly run'), 'night.json')], ['PLAN-FREE:day']),
    text: 'conforming within scope',
    colour: '#97ca00',
    title: 'conforming within the declared scope (what it leaves out is not checked)',
  },
  {
    state: 'scoped, with the day from a night 4 days old',
    subject: certified('skipped', [night(4)], ['PLAN-FREE:minute']),
    text: 'conforming within scope · evidence ≤ 4d',
    colour: '#97ca00',
    title: 'conforming within the declared scope (what it leaves out is not checked), on evidence that includes earlier reports up to 4d old',
  },
  ...[certified('skipped', [night(8)])].map((subject) => ({
    state: 'a night 8 days old, too old to count: not certified, as without evidence',
    subject,
    text: `not certified ${subject.must!.total - 1}/${subject.must!.total} MUST`,
    colour: '#dfb317',
    title: `not certified ${subject.must!.total - 1}/${subject.must!.total} MUST`,
  })),
];

for (const { state, subject, text, colour, title } of PROVENANCE_CASES) {
  test(`a certificate's badge, ${state}: "${text}"`, () => {
    const svg = renderBadge(subject, '1.0.0');
    expect(texts(svg)).toEqual(['Pet Store 1.0.0', text]);
    expect(svg).toMatch(new RegExp(`<rect width="\\d+" height="20" rx="3" fill="${colour}"/>`));
    expect(svg).toContain(`<title>Pet Store 1.0.0: ${title}</title>`);
  });
}

test('the badge grows with its text, so a longer message is not squeezed', () => {
  const width = (svg: string) => Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
  const short = width(renderBadge(CONFORMING.implementation, '1.0.0'));
  const long = width(renderBadge(PARTLY_CHECKED.implementation, '1.0.0'));
  expect(long - short).toBeGreaterThan(50);
  expect(short, 'about the width shields.io gives "Pet Store 1.0.0 | conforming"').toBeGreaterThan(140);
  expect(short).toBeLessThan(180);
});

test('a hostile spec version is escaped in the text, the title and the aria-label', () => {
  const svg = renderBadge(CONFORMING.implementation, HOSTILE);
  expect(svg).not.toContain('<script');
  expect(svg).not.toContain('<img');
  expect(svg).toContain('aria-label="Pet Store &#60;script&#62;alert(&#34;pwned&#34;)&#60;/script&#62; &#39;quoted&#39; &#38; &#60;img src=x onerror=alert(1)&#62;: conforming"');
});

test('every badge, hostile text included, is well-formed standalone SVG that Chromium parses', async () => {
  skipWithout(chromiumPath() !== undefined, INSTALL_HINT);
  const badges = [...[...CASES.map((item) => item.implementation), ...PROVENANCE_CASES.map((item) => item.subject)].map((subject) => renderBadge(subject, '1.0.0')), renderBadge(CONFORMING.implementation, HOSTILE)];
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const parsed = await page.evaluate((sources) => sources.map((source) => {
      const document = new DOMParser().parseFromString(source, 'image/svg+xml');
      return { root: document.documentElement.namespaceURI + ' ' + document.documentElement.localName, errors: document.getElementsByTagName('parsererror').length };
    }), badges);
    expect(parsed).toEqual(badges.map(() => ({ root: 'http://www.w3.org/2000/svg svg', errors: 0 })));
  } finally {
    await browser.close();
  }
});
