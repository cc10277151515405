/** Longest piece of client input an error message repeats. */
export const EXCERPT_CHARS = 64;

/**
 * Client input cut to `max` UTF-16 units plus "…", as an error message may repeat it: a
 * mistake stays recognisable without the answer (or a log line) growing with whatever the
 * client sent (a 1 MB channel name, a 16 KB path). Never cuts a surrogate pair in two, so the
 * cut text is still valid Unicode.
 */
export function cutShort(text: string, max: number = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** cutShort() as a JSON string literal, quotes included: for messages about one value. */
export function quoteShort(text: string, max: number = EXCERPT_CHARS): string {
  return JSON.stringify(cutShort(text, max));
}
