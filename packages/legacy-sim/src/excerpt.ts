/** Longest piece of client input an error message repeats. */
export const EXCERPT_CHARS = 64;

/** `input` cut to `max` characters (never inside a surrogate pair), with "…" when cut. */
export function shorten(input: string, max = EXCERPT_CHARS): string {
  if (input.length <= max) return input;
  return (
    Array.from(input.slice(0, max + 1))
      .slice(0, max)
      .join('') + '…'
  );
}

/**
 * A short, quoted excerpt of client input for an error message: a mistake is recognisable
 * without the answer (or a log line) growing with whatever the client sent.
 */
export function excerpt(input: string, max = EXCERPT_CHARS): string {
  return JSON.stringify(shorten(input, max));
}

/** A third-party message (an XML parser's) that quotes input in '...': each quote cut short. */
export function shortenQuoted(message: string, max = EXCERPT_CHARS): string {
  const cut = message.replace(/'([^']*)'/g, (_all, quoted: string) => `'${shorten(quoted, max)}'`);
  return shorten(cut, 4 * max);
}
