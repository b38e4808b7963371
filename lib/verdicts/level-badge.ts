/** A rule's level as a badge, the same in every report that lists rules. */
import { html, type Html } from '../html.ts';
import type { Level } from '../rules.ts';

export function levelBadge(level: Level): Html {
  return html`<span class="badge level-${level}">${level}</span>`;
}

export const LEVEL_BADGE_CSS = `
.badge.level-MUST { background: #24292f; } .badge.level-SHOULD { background: #6e7781; } .badge.level-GAP { background: #fff; color: #57606a; border: 1px solid var(--line); }
`;
