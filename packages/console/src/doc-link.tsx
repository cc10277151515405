/**
 * A link from a panel to the docs page about it. The simulator serves the repository's docs/
 * at /_sim/docs/ (the page is /_sim/ui, so the link is relative and also works in a sandbox's
 * console), so it works from the image and `npm start` alike. A new tab keeps the console's
 * filters, paused view and form as they are.
 */
export function DocLink({ page, what }: { page: string; what: string }) {
  return (
    <a
      class="doc-link"
      href={`docs/${page}`}
      target="_blank"
      rel="noopener"
      title={`${what}: the documentation (opens in a new tab)`}
      aria-label={`Docs: ${what}`}
    >
      docs
    </a>
  );
}
