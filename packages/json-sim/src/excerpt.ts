/** Longest piece of client input an error message repeats. */
export const EXCERPT_CHARS = 64;

/**
 * Client input as an error message may quote it: cut to EXCERPT_CHARS characters plus "…", so
 * a message never grows with the input (a 1 MB channel name, a 16 KB path).
 */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  // Do not cut a surrogate pair in two.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A received value for "got …": a string quoted and cut, a number as written, else its kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `${JSON.stringify(excerpt(value))} (a string)`;
  if (typeof value === 'number' || typeof value === 'boolean') return excerpt(String(value));
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** A query or header value quoted and cut, for messages about one parameter. */
export function quoted(text: string): string {
  return JSON.stringify(excerpt(text));
}
