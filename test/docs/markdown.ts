import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What the docs tests read: the README and every page under docs/, as users see them. */
export const ROOT = path.resolve(__dirname, '..', '..');

export interface Page {
  /** Path from the repository root, such as `docs/certify.md`. */
  readonly file: string;
  readonly text: string;
}

export function readPage(file: string): Page {
  return { file, text: readFileSync(path.join(ROOT, file), 'utf8') };
}

/** README.md, CHANGELOG.md and docs/*.md. */
export function docPages(): Page[] {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CHANGELOG.md', ...docs].map(readPage);
}

/** The lines of a page outside fenced code blocks, with their 1-based line numbers. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line: i + 1, text: line });
  });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a page has: its headings' slugs (repeats numbered as GitHub does). */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: line } of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** Relative links of a page's prose (inline code spans left out): no scheme, no mail. */
export function relativeLinks(text: string): Link[] {
  const links: Link[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    const bare = prose.replace(/`[^`]*`/g, '``');
    for (const m of bare.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ line, target });
    }
  }
  return links;
}

export interface Fence {
  /** The info string after the opening fence: `sh`, `ts`, `text`... */
  readonly lang: string;
  readonly body: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The HTML comment on the line before the fence, if any (`<!-- docs-test: skip ... -->`). */
  readonly marker: string | undefined;
}

export function fences(text: string): Fence[] {
  const lines = text.split('\n');
  const out: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    const before = lines[start - 1] ?? '';
    out.push({
      lang: open[1]!,
      body: body.join('\n'),
      line: start + 1,
      marker: /^<!--.*-->$/.test(before.trim()) ? before.trim() : undefined,
    });
  }
  return out;
}
