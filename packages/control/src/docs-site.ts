import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { coreError } from '@racedata/core';
import { DOCS_STYLE } from './docs-style';
import { escapeHtml, pageExtension, pageSummary, type ServedFile } from './docs-render';

export const DOCS_PATH = '/_sim/docs';
const STYLE_ROUTE = '_docs.css';

// The pages run no script and load nothing from elsewhere (data: is the empty icon that keeps
// browsers from asking for /favicon.ico); no page may frame them.
const CSP =
  "default-src 'none'; img-src 'self' data:; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What a page of docs/ may be called: a served name is exactly one of these, never a path. */
const DOC_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(md|png)$/;
/** The pages from the repository root that docs/ links to and a user of the image wants too. */
const ROOT_PAGES = ['README.md', 'CHANGELOG.md'];

interface Rendered {
  readonly mtimeMs: number;
  readonly size: number;
  readonly type: string;
  readonly body: Buffer;
  readonly etag: string;
}

interface Listing {
  /** Repository path to served file. */
  readonly byRepoPath: Map<string, ServedFile>;
  /** Route to served file. */
  readonly byRoute: Map<string, ServedFile>;
}

/**
 * The repository's documentation, served read-only under /_sim/docs/: the pages of docs/ (and
 * the README and changelog) as HTML, and the images they show. Nothing is read or loaded until
 * the first request (the Markdown renderer neither), so a start pays nothing for it. Only files
 * listed from the folder are served, by their exact name: no request path reaches the file system.
 */
export class DocsSite {
  private listing: Promise<Listing> | undefined;
  private readonly rendered = new Map<string, Rendered>();

  /** `root` holds README.md, CHANGELOG.md and docs/; undefined where they were not installed. */
  constructor(
    private readonly root: string | undefined,
    private readonly kind: string,
  ) {}

  /** Answers GET or HEAD on /_sim/docs or below; throws NOT_FOUND for anything it does not serve. */
  async serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname === DOCS_PATH) {
      // The pages' relative links need the slash.
      res.writeHead(302, { location: 'docs/', 'content-length': 0 });
      res.end();
      return;
    }
    if (pathname === `${DOCS_PATH}/${STYLE_ROUTE}`) {
      send(req, res, this.fixed('style', 'text/css; charset=utf-8', DOCS_STYLE));
      return;
    }
    if (this.root === undefined) {
      throw coreError(
        'NOT_FOUND',
        'the docs pages are not installed with this simulator (they come with the container images and a ' +
          'repository checkout); read them in the repository under docs/',
      );
    }
    const listing = await this.list(this.root);
    const name = pathname.slice(DOCS_PATH.length + 1);
    if (name === '') {
      send(req, res, await this.index(this.root, listing));
      return;
    }
    const file = listing.byRoute.get(safeDecode(name) ?? '');
    if (!file) {
      throw coreError(
        'NOT_FOUND',
        `no docs page ${JSON.stringify(name.slice(0, 80))}: the pages are listed at ${DOCS_PATH}/`,
      );
    }
    send(req, res, await this.file(this.root, file, listing));
  }

  private list(root: string): Promise<Listing> {
    this.listing ??= (async () => {
      const files: ServedFile[] = [];
      for (const name of ROOT_PAGES) {
        if (await isFile(path.join(root, name))) files.push({ repoPath: name, route: name });
      }
      const docs = await readdir(path.join(root, 'docs')).catch(() => [] as string[]);
      for (const name of docs.sort()) {
        if (DOC_FILE.test(name) && (await isFile(path.join(root, 'docs', name)))) {
          files.push({ repoPath: `docs/${name}`, route: name });
        }
      }
      return {
        byRepoPath: new Map(files.map((f) => [f.repoPath, f])),
        byRoute: new Map(files.map((f) => [f.route, f])),
      };
    })();
    // A failed listing is tried again by the next request.
    this.listing.catch(() => (this.listing = undefined));
    return this.listing;
  }

  /** A served file, rendered again only when it changed on disk (a checkout being edited). */
  private async file(root: string, file: ServedFile, listing: Listing): Promise<Rendered> {
    const full = path.join(root, ...file.repoPath.split('/'));
    const info = await stat(full);
    const cached = this.rendered.get(file.route);
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
    const raw = await readFile(full);
    const rendered = file.route.endsWith('.png')
      ? entry(info, 'image/png', raw)
      : entry(info, 'text/html; charset=utf-8', this.page(file, raw.toString('utf8'), listing));
    this.rendered.set(file.route, rendered);
    return rendered;
  }

  private page(file: ServedFile, markdown: string, listing: Listing): string {
    const title = plain(pageSummary(markdown).title);
    const html = renderMarkdown(markdown, file.repoPath, listing.byRepoPath);
    return layout(title || file.route, `<article class="page">\n${html}</article>`, this.kind);
  }

  private async index(root: string, listing: Listing): Promise<Rendered> {
    const items: string[] = [];
    let newest = 0;
    for (const file of listing.byRoute.values()) {
      if (!file.route.endsWith('.md')) continue;
      const full = path.join(root, ...file.repoPath.split('/'));
      const markdown = await readFile(full, 'utf8');
      newest = Math.max(newest, (await stat(full)).mtimeMs);
      const summary = pageSummary(markdown);
      const title = plain(summary.title);
      const lead = summary.lead;
      const leadHtml = lead ? renderInline(lead, file.repoPath, listing.byRepoPath) : '';
      items.push(
        `<li><a href="${escapeHtml(encodeURIComponent(file.route))}">${escapeHtml(title || file.route)}</a>` +
          ` <code>${escapeHtml(file.repoPath)}</code>${leadHtml ? `<p>${leadHtml}</p>` : ''}</li>`,
      );
    }
    const body =
      `<article class="page">\n<h1>racedata-sim documentation</h1>\n` +
      `<p>The pages of the repository's <code>docs/</code>, served by this simulator (read-only).</p>\n` +
      `<ul class="index">\n${items.join('\n')}\n</ul>\n</article>`;
    const html = layout('Documentation', body, this.kind);
    return entry({ mtimeMs: newest, size: Buffer.byteLength(html) }, 'text/html; charset=utf-8', html);
  }

  private fixed(key: string, type: string, text: string): Rendered {
    const cached = this.rendered.get(`\0${key}`);
    if (cached) return cached;
    const made = entry({ mtimeMs: 0, size: 0 }, type, text);
    this.rendered.set(`\0${key}`, made);
    return made;
  }
}

function entry(info: { mtimeMs: number; size: number }, type: string, content: string | Buffer): Rendered {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  return { mtimeMs: info.mtimeMs, size: info.size, type, body, etag };
}

/** GET and HEAD, with If-None-Match answered 304 as browsers ask when they revisit a page. */
function send(req: IncomingMessage, res: ServerResponse, file: Rendered): void {
  const headers = {
    'content-type': file.type,
    'cache-control': 'no-cache',
    etag: file.etag,
    'content-security-policy': CSP,
    // frame-ancestors for browsers that predate it.
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  };
  if (matches(req.headers['if-none-match'], file.etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': file.body.length });
  res.end(req.method === 'HEAD' ? undefined : file.body);
}

function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

/** A heading's text without its code spans' backticks, for a title. */
function plain(markdown: string): string {
  return markdown.replace(/`/g, '');
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

async function isFile(file: string): Promise<boolean> {
  return stat(file).then(
    (info) => info.isFile(),
    () => false,
  );
}

// Loaded on the first page asked for: no start evaluates the renderer.
/* eslint-disable @typescript-eslint/no-require-imports */
const marked = () => require('marked') as typeof import('marked');
/* eslint-enable @typescript-eslint/no-require-imports */

function renderMarkdown(markdown: string, from: string, served: ReadonlyMap<string, ServedFile>): string {
  const { Marked } = marked();
  return new Marked(pageExtension(from, served)).parse(markdown, { async: false });
}

function renderInline(markdown: string, from: string, served: ReadonlyMap<string, ServedFile>): string {
  const { Marked } = marked();
  return new Marked(pageExtension(from, served)).parseInline(markdown, { async: false });
}

function layout(title: string, main: string, kind: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · racedata-sim docs</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLE_ROUTE}">
</head>
<body>
<header class="docs-header"><a href="./">Documentation</a><a href="../ui">Console (${escapeHtml(kind)})</a></header>
<main>
${main}
</main>
</body>
</html>
`;
}
