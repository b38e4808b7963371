/**
 * The catalogue names a rule's section by the spec's headings ("Limits / Rate limits by plan"); a `###` heading
 * is named short ("Endpoints / GET /pets" for "GET /pets (operation name: listPets)").
 */
import { readFileSync } from 'node:fs';
import { fixturePath } from './fixtures.ts';

/** "GET /pets/{petId} (operation name: getPet) — deprecated" → "GET /pets/{petId}"; "NewPet (request body …)" → "NewPet". */
export function shortHeading(text: string): string {
  return text.replace(/\s+—.*$/, '').replace(/\s*\(.*\)\s*$/, '').trim();
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchor of each catalogue section in the spec's Markdown, as GitHub renders it. */
export function sectionAnchors(specText: string = readFileSync(fixturePath('spec', 'pet-store-interface.md'), 'utf8')): Map<string, string> {
  const anchors = new Map<string, string>();
  let parent = '';
  for (const match of specText.matchAll(/^(##|###) (.+)$/gm)) {
    const heading = match[2]!.trim();
    if (match[1] === '##') {
      parent = heading;
      anchors.set(heading, headingSlug(heading));
    } else {
      anchors.set(`${parent} / ${shortHeading(heading)}`, headingSlug(heading));
    }
  }
  return anchors;
}
