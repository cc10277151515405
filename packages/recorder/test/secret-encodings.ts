/**
 * Secrets that are hard to find, and every way an upstream can echo one inside the data a
 * recorder writes: the finder's tests and the hostile upstream's `echo` mode use the same list,
 * so "no secret in any byte written" is checked against exactly the forms the guard claims.
 */

/** Quotes, backslashes, markup, non-ASCII (composed and astral), and text that looks like an escape. */
export const HARD_SECRETS: readonly string[] = [
  'Sec"ret\\Pw-2024',
  'p&<a>\'"\\Q-ünï©ødé 9',
  'Пароль&<>"\\2024',
  'k😀y"\\&<>-42x',
  'a\\u0041&amp;%41-Zz9',
];

/** Single characters worth mixing into generated secrets. */
export const SPECIAL_UNITS: readonly string[] = [
  '"',
  '\\',
  '&',
  '<',
  '>',
  "'",
  'ä',
  'Ω',
  '😀',
  '/',
  '%',
  ' ',
  '+',
  ';',
];

/** The key that goes with a secret in a Basic header. */
export const ENCODING_KEY = 'rec-key';

const units = (s: string) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));
const u4 = (n: number) => `\\u${n.toString(16).padStart(4, '0')}`;
const xmlNamed = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );
const json = (value: string) => JSON.stringify({ date: '2026-05-11', payload: { note: value } });
const legacy = (xml: string) => JSON.stringify({ channel: 'RaceDay', xml });

/**
 * Each encoding: the secret as it would stand in a written recording line (a JSON line, or a
 * legacy line holding XML). Every one must be found by findSecrets and refused by the guard.
 */
export const encodings: Readonly<Record<string, (secret: string) => string>> = {
  raw: (s) => `note=${s}`,
  'json-escaped': (s) => json(s),
  'every char as \\u': (s) => `{"note":"${units(s).map(u4).join('')}"}`,
  'every other char as \\u': (s) =>
    `{"note":"${units(s)
      .map((u, i) => (i % 2 === 0 ? u4(u) : JSON.stringify(String.fromCharCode(u)).slice(1, -1)))
      .join('')}"}`,
  'xml named entities in a JSON string': (s) => legacy(`<Race note="${xmlNamed(s)}"/>`),
  'xml decimal references': (s) =>
    legacy(`<Race>${[...s].map((c) => `&#${c.codePointAt(0)};`).join('')}</Race>`),
  'xml hex references': (s) =>
    legacy(`<Race>${[...s].map((c) => `&#x${(c.codePointAt(0) as number).toString(16)};`).join('')}</Race>`),
  'xml in a STOMP body in a JSON line': (s) =>
    JSON.stringify({ body: JSON.stringify({ payload: `<Race note="${xmlNamed(s)}"/>` }) }),
  base64: (s) => json(Buffer.from(s).toString('base64')),
  base64url: (s) => json(Buffer.from(s).toString('base64url')),
  'base64 of key:secret': (s) => json(`Basic ${Buffer.from(`${ENCODING_KEY}:${s}`).toString('base64')}`),
  'base64url of key:secret': (s) => json(Buffer.from(`${ENCODING_KEY}:${s}`).toString('base64url')),
  'url-encoded': (s) => json(`https://x/?s=${encodeURIComponent(s)}`),
  'every byte percent-encoded': (s) => json(`%${Buffer.from(s).toString('hex').match(/../g)?.join('%')}`),
  'form-encoded': (s) => json(encodeURIComponent(s).replace(/%20/g, '+')),
  'upper case': (s) => json(s.toUpperCase()),
  'lower case': (s) => json(s.toLowerCase()),
  'decomposed (NFD)': (s) => json(s.normalize('NFD')),
  'double JSON-escaped': (s) => JSON.stringify({ body: json(s) }),
};
