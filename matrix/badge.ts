/**
 * An implementation's certification as a shields.io-style flat badge (reports/certify/<name>/badge.svg), for
 * its README and for the matrix page. The right half says what a reader needs from a badge:
 * - conforming, green: every MUST rule that binds it was checked and held. When the certificate counted
 *   earlier reports (certify --evidence), it says how old the oldest of them is, rounded up:
 *   "conforming · evidence ≤ 4d"; when the team declared something out of scope, "conforming within scope"
 *   (yellow-green: exit 0, but it proves less). The title spells both out in full words;
 * - "38/40 MUST", red: not conforming, with how many MUST rules held of those that bind it;
 * - "not certified 38/40 MUST", yellow: nothing failed but some MUST rules went unchecked, so the run
 *   proves less than a certificate; the count says how far it got;
 * - "not certified", grey: the run could not be made at all (the server did not start or answer).
 * The SVG has no ids (no gradient, no clip path), so several badges can sit inline in one HTML page.
 */
import { html } from '../lib/html.ts';
import { ageBound } from '../lib/verdicts/provenance.ts';
import type { MatrixImplementation } from './model.ts';
import { verdanaWidth } from './verdana-width.ts';

const COLOURS = { conforming: '#4c1', scoped: '#97ca00', notConforming: '#e05d44', incomplete: '#dfb317', uncertified: '#9f9f9f', label: '#555' } as const;
const HEIGHT = 20;
const PADDING = 5;
const RADIUS = 3;

interface Message {
  text: string;
  /** The same in full words, for the title and alt text; the text itself when it needs none. */
  words?: string;
  colour: string;
}

/** What a badge is drawn from: a matrix column, or a single run's report (cli/badge-file.ts). */
export type BadgeSubject = Pick<MatrixImplementation, 'state' | 'must' | 'provenance'>;

export function renderBadge(implementation: BadgeSubject, specVersion: string): string {
  const label = badgeLabel(specVersion);
  const { text, colour } = message(implementation);
  const labelWidth = Math.round(verdanaWidth(label)) + 2 * PADDING;
  const messageWidth = Math.round(verdanaWidth(text)) + 2 * PADDING;
  const width = labelWidth + messageWidth;
  const summary = badgeSummary(implementation, specVersion);
  return html`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${summary}">
<title>${summary}</title>
<rect width="${width}" height="${HEIGHT}" rx="${RADIUS}" fill="${colour}"/>
<rect width="${labelWidth}" height="${HEIGHT}" rx="${RADIUS}" fill="${COLOURS.label}"/>
<rect x="${labelWidth - RADIUS}" width="${RADIUS}" height="${HEIGHT}" fill="${COLOURS.label}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
${badgeText(label, labelWidth / 2, labelWidth - 2 * PADDING)}
${badgeText(text, labelWidth + messageWidth / 2, messageWidth - 2 * PADDING)}
</g>
</svg>
`.value;
}

/** What the badge says, in words: its title, and the alt text wherever it is shown as an image. */
export function badgeSummary(implementation: BadgeSubject, specVersion: string): string {
  const { text, words } = message(implementation);
  return `${badgeLabel(specVersion)}: ${words ?? text}`;
}

function badgeLabel(specVersion: string): string {
  return `Pet Store ${specVersion}`;
}

/** White text over a faint shadow one pixel lower, as shields draws it; textLength holds it to the estimated width. */
function badgeText(text: string, centre: number, width: number) {
  return html`<text x="${centre}" y="15" fill="#010101" fill-opacity=".3" textLength="${width}" lengthAdjust="spacingAndGlyphs" aria-hidden="true">${text}</text><text x="${centre}" y="14" textLength="${width}" lengthAdjust="spacingAndGlyphs">${text}</text>`;
}

function message({ state, must, provenance }: BadgeSubject): Message {
  const tally = must ? `${must.held}/${must.total} MUST` : undefined;
  switch (state) {
    case 'conforming':
      return conformingMessage(provenance);
    case 'not-conforming':
      return { text: tally ?? 'not conforming', colour: COLOURS.notConforming };
    case 'incomplete':
      return { text: tally ? `not certified ${tally}` : 'not certified', colour: COLOURS.incomplete };
    case undefined:
      return { text: 'not certified', colour: COLOURS.uncertified };
  }
}

function conformingMessage(provenance: BadgeSubject['provenance']): Message {
  const scoped = provenance?.scoped === true;
  const age = provenance?.oldestEvidenceMs;
  if (!scoped && age === undefined) return { text: 'conforming', colour: COLOURS.conforming };
  const text = `${scoped ? 'conforming within scope' : 'conforming'}${age === undefined ? '' : ` · evidence ≤ ${ageBound(age)}`}`;
  const words = [
    scoped ? 'conforming within the declared scope (what it leaves out is not checked)' : 'conforming',
    ...(age === undefined ? [] : [`on evidence that includes earlier reports up to ${ageBound(age)} old`]),
  ].join(', ');
  return { text, words, colour: scoped ? COLOURS.scoped : COLOURS.conforming };
}
