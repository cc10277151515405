/**
 * Characters a file name may hold that would change what a terminal or a log shows around it:
 * line breaks (a name could forge an output line), other controls, and the bidirectional
 * overrides that reorder text.
 */
// eslint-disable-next-line no-control-regex -- finding controls is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A file name or path as printed in output and messages: as it is, or JSON-quoted (with its
 * controls escaped) when it holds a character that could forge or reorder the output around it.
 */
export function shownName(name: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(name)) return name;
  // JSON quoting escapes the C0 controls; the rest (DEL, C1, separators, overrides) as \uXXXX too.
  return JSON.stringify(name).replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
