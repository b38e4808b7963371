/**
 * Every link of the README and docs/ must lead somewhere: a relative link to a file of the repository, and its
 * #anchor to a heading of that file (as GitHub renders heading anchors). External links are left alone:
 * the tests reach no network.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { headingSlug } from '../../lib/spec-sections.ts';

export interface BrokenLink {
  /** Relative to the repository root. */
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** README.md and every Markdown file under docs/, from the repository root. */
export function manualFiles(root: string): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(path.join(root, dir)).flatMap((name) => {
      const relative = path.join(dir, name);
      if (statSync(path.join(root, relative)).isDirectory()) return docs(relative);
      return name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', ...docs('docs')];
}

/** The anchors GitHub gives a Markdown file's headings: repeated headings get -1, -2, …; explicit `<a id>` count too. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = headingSlug(match[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, ''));
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  for (const match of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** Code blocks and inline code hold no links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, ' '));
}

export function brokenLinks(root: string, files: readonly string[] = manualFiles(root)): BrokenLink[] {
  const anchorCache = new Map<string, Set<string>>();
  const anchorsIn = (file: string): Set<string> => {
    let anchors = anchorCache.get(file);
    if (!anchors) {
      anchors = anchorsOf(readFileSync(path.join(root, file), 'utf8'));
      anchorCache.set(file, anchors);
    }
    return anchors;
  };
  const broken: BrokenLink[] = [];
  for (const file of files) {
    const text = withoutCode(readFileSync(path.join(root, file), 'utf8')).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
    const lines = text.split('\n');
    lines.forEach((lineText, index) => {
      for (const match of lineText.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1]!;
        const problem = problemOf(root, file, target, anchorsIn);
        if (problem) broken.push({ file, line: index + 1, target, problem });
      }
    });
  }
  return broken;
}

function problemOf(root: string, from: string, target: string, anchorsIn: (file: string) => Set<string>): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = pathPart === '' ? from : path.normalize(path.join(path.dirname(from), decodeURIComponent(pathPart)));
  if (file.startsWith('..')) return 'leads outside the repository';
  if (!existsSync(path.join(root, file))) return `no such file: ${file}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md')) return undefined;
  if (!anchorsIn(file).has(anchor)) return `no heading in ${file} has the anchor #${anchor}`;
  return undefined;
}
