/** Longest piece of client input an error message repeats. */
export const EXCERPT_CHARS = 64;

/**
 * A short, quoted excerpt of client input for an error message: a mistake is recognisable
 * without the answer (or a log line) growing with whatever the client sent.
 */
export function excerpt(input: string, max = EXCERPT_CHARS): string {
  const chars = Array.from(input.slice(0, max * 2 + 2));
  const cut = chars.length > max || input.length > max * 2 + 2;
  return JSON.stringify(chars.slice(0, max).join('') + (cut ? '…' : ''));
}
