import path from 'node:path';
import type { MarkedExtension, Tokens } from 'marked';

/**
 * Turns one page of the repository's documentation into the HTML /_sim/docs/ serves. Pages are
 * written for the repository (GitHub renders them there), so every relative link is read as a
 * repository path and sent to the page it names when that page is served here; a link to a file
 * that is not served (a recording, a benchmark result) is left as text that names it.
 */

/** A page as the repository names it (`docs/console.md`, `README.md`) and as it is served. */
export interface ServedFile {
  /** Path from the repository root, with forward slashes. */
  readonly repoPath: string;
  /** Its name under /_sim/docs/: every served file sits at one level, so links stay relative. */
  readonly route: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

type Target =
  | { readonly kind: 'here'; readonly href: string }
  | { readonly kind: 'external'; readonly href: string }
  | { readonly kind: 'repository'; readonly repoPath: string }
  | { readonly kind: 'none' };

/**
 * Where a link written in the page `from` leads when the page is read under /_sim/docs/. A link
 * to an anchor of the page itself keeps to it, shown on that page or (the index) elsewhere.
 */
export function resolveLink(href: string, from: string, served: ReadonlyMap<string, ServedFile>): Target {
  if (href.startsWith('#')) {
    const self = served.get(from);
    return { kind: 'here', href: self ? `${encodeURIComponent(self.route)}${href}` : href };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    // No javascript:, data: or file: link, whoever wrote the page.
    return scheme === 'http' || scheme === 'https' || scheme === 'mailto'
      ? { kind: 'external', href }
      : { kind: 'none' };
  }
  const cut = href.search(/[?#]/);
  const file = cut < 0 ? href : href.slice(0, cut);
  const fragment = cut < 0 ? '' : href.slice(cut).replace(/^\?[^#]*/, '');
  if (file === '') return resolveLink(fragment || '#', from, served);
  let decoded: string;
  try {
    decoded = decodeURIComponent(file);
  } catch {
    return { kind: 'none' };
  }
  const repoPath = path.posix
    .normalize(path.posix.join(path.posix.dirname(from), decoded))
    .replace(/\/$/, '');
  if (repoPath.startsWith('..') || path.posix.isAbsolute(repoPath)) return { kind: 'none' };
  const target = served.get(repoPath);
  if (!target) return { kind: 'repository', repoPath };
  return { kind: 'here', href: `${encodeURIComponent(target.route)}${fragment}` };
}

/** The marked extension for one page: anchors on headings, links resolved, raw HTML shown as text. */
export function pageExtension(from: string, served: ReadonlyMap<string, ServedFile>): MarkedExtension {
  const seen = new Map<string, number>();
  return {
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const base = headingSlug(token.text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n === 0 ? base : `${base}-${n}`;
        const inner = this.parser.parseInline(token.tokens);
        return `<h${token.depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true">#</a>${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        const target = resolveLink(token.href, from, served);
        switch (target.kind) {
          case 'here':
            return `<a href="${escapeHtml(target.href)}"${title}>${inner}</a>`;
          case 'external':
            return `<a href="${escapeHtml(target.href)}"${title} rel="noopener noreferrer">${inner}</a>`;
          case 'repository':
            return `<span class="elsewhere" title="${escapeHtml(`In the repository: ${target.repoPath} (not served here)`)}">${inner}</span>`;
          default:
            return inner;
        }
      },
      image(token: Tokens.Image) {
        const target = resolveLink(token.href, from, served);
        const alt = escapeHtml(token.text);
        if (target.kind !== 'here') return alt;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<img src="${escapeHtml(target.href)}" alt="${alt}"${title}>`;
      },
      // The pages' HTML is comments for the docs tests (`<!-- docs-test: skip -->`): dropped.
      // Anything else is shown as written, never run: no page can put markup in the simulator's origin.
      html(token: Tokens.HTML | Tokens.Tag) {
        const text = token.text.replace(/<!--[\s\S]*?-->/g, '');
        return text.trim() === '' ? '' : escapeHtml(text);
      },
    },
  };
}

/** The first heading and the first paragraph of a page: what the index lists. */
export function pageSummary(markdown: string): { title: string; lead: string } {
  let fenced = false;
  let title = '';
  const lead: string[] = [];
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) continue;
    if (!title) {
      const m = /^#\s+(.*?)\s*$/.exec(line);
      if (m) title = m[1]!;
      continue;
    }
    if (line.trim() === '' || line.startsWith('<!--')) {
      if (lead.length) break;
      continue;
    }
    if (/^[#>|!-]|^```/.test(line)) {
      if (lead.length) break;
      continue;
    }
    lead.push(line.trim());
  }
  return { title, lead: lead.join(' ') };
}
