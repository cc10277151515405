import type { ServerResponse } from 'node:http';

/** The built console (packages/console): one script and one stylesheet, served from memory. */
export interface ConsoleAssets {
  readonly js: string;
  readonly css: string;
}

// Relative asset paths: the page works at /_sim/ui and inside a sandbox at /sandboxes/{id}/_sim/ui.
const PAGE = (kind: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>racedata-sim console (${kind})</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="ui/console.css">
<script defer src="ui/console.js"></script>
</head>
<body data-simulator="${kind}">
<noscript>The console needs JavaScript.</noscript>
<div id="app"></div>
</body>
</html>
`;

// Everything the page loads comes from the simulator itself: it works offline, and no script
// from anywhere else can run against the control plane. Inline styles are allowed because the
// browser's own XML parser styles the error element it builds when the console checks a document.
// No page may frame it: a framed console's buttons could be clicked for the user (clickjacking).
const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

function send(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-length': Buffer.byteLength(body, 'utf8'),
    'cache-control': 'no-cache',
    'content-security-policy': CSP,
    // frame-ancestors for browsers that predate it.
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

/** Serves /_sim/ui, /_sim/ui/console.js and /_sim/ui/console.css; false for another path. */
export function serveConsole(
  res: ServerResponse,
  path: string,
  kind: string,
  assets: ConsoleAssets,
): boolean {
  if (path === '/_sim/ui') {
    send(res, 'text/html', PAGE(kind));
    return true;
  }
  if (path === '/_sim/ui/') {
    // The page's relative asset paths need it without the slash.
    res.writeHead(302, { location: '../ui', 'content-length': 0 });
    res.end();
    return true;
  }
  if (path === '/_sim/ui/console.js') {
    send(res, 'text/javascript', assets.js);
    return true;
  }
  if (path === '/_sim/ui/console.css') {
    send(res, 'text/css', assets.css);
    return true;
  }
  return false;
}
