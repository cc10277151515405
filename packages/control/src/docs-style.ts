/** The stylesheet of the pages under /_sim/docs/: readable prose, code and tables, no web fonts. */
export const DOCS_STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --link: #0969da; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --code: #151b23; --link: #4493f8; }
}
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; }
a { color: var(--link); }
.docs-header { display: flex; gap: 1.5rem; padding: .6rem 1.5rem; border-bottom: 1px solid var(--line); font-weight: 600; }
.docs-header a { text-decoration: none; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1, h2, h3, h4 { line-height: 1.25; margin: 1.6em 0 .6em; }
h1 { font-size: 2rem; border-bottom: 1px solid var(--line); padding-bottom: .3em; }
h2 { font-size: 1.5rem; border-bottom: 1px solid var(--line); padding-bottom: .3em; }
.anchor { float: left; margin-left: -1.1em; width: 1.1em; color: var(--muted); text-decoration: none; visibility: hidden; }
h1:hover .anchor, h2:hover .anchor, h3:hover .anchor, h4:hover .anchor, h5:hover .anchor, h6:hover .anchor { visibility: visible; }
code, pre { font: 85%/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { background: var(--code); padding: .15em .35em; border-radius: 4px; }
pre { background: var(--code); padding: 1rem; overflow: auto; border-radius: 6px; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; display: block; overflow: auto; margin: 1rem 0; }
th, td { border: 1px solid var(--line); padding: .35rem .7rem; vertical-align: top; }
blockquote { margin: 0; padding: 0 1em; color: var(--muted); border-left: .25em solid var(--line); }
img { max-width: 100%; border: 1px solid var(--line); }
.elsewhere { border-bottom: 1px dotted var(--muted); cursor: help; }
.index { list-style: none; padding: 0; }
.index li { margin: 0 0 1rem; }
.index li > a { font-weight: 600; }
.index code { margin-left: .5rem; color: var(--muted); }
.index p { margin: .2rem 0 0; color: var(--muted); }
`;
