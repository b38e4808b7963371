/**
 * Numbers in hand-written pages, kept true by the code: a page marks each number that comes from the code as
 * a fragment, `<!-- generated:rules -->72<!-- /generated -->`, and `npm run docs:reference` writes the
 * number the code gives (scripts/docs/facts.ts) between the markers; `--check` fails on a page whose numbers
 * differ. The comments do not render, so the page reads as prose.
 */

const FRAGMENT = /<!-- generated:([a-z0-9-]+) -->([\s\S]*?)<!-- \/generated -->/g;

export interface FilledPage {
  text: string;
  /** Fact names the page uses that the code does not give, with the line of each. */
  unknown: Array<{ name: string; line: number }>;
}

/** The page with every fragment holding its fact's value; fragments naming no known fact are left as they are. */
export function fillFragments(markdown: string, facts: Readonly<Record<string, string>>): FilledPage {
  const unknown: FilledPage['unknown'] = [];
  const text = markdown.replace(FRAGMENT, (whole, name: string, _old: string, offset: number) => {
    const value = facts[name];
    if (value === undefined) {
      unknown.push({ name, line: markdown.slice(0, offset).split('\n').length });
      return whole;
    }
    return `<!-- generated:${name} -->${value}<!-- /generated -->`;
  });
  return { text, unknown };
}

/** The fact names a page uses, in order, each once. */
export function fragmentNames(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(FRAGMENT)].map((match) => match[1]!))];
}
