/**
 * The one definition of "the forms a secret takes" that both the recorder's write-time guard and
 * the secret finder (findSecrets, run over files afterwards) use, so the two always agree.
 *
 * A secret can reach bytes in two kinds of disguise, and both are searched:
 * - encoded on its own (`needles`): raw, URL- or form-encoded, base64 or base64url at any
 *   alignment (inside a Basic header it starts mid-group);
 * - wrapped by the text around it (`decodedLayers`): escaped inside a JSON string (`\"`, `\\`,
 *   `\u00e4`, or every character as `\uXXXX`), entity-encoded inside XML text or an attribute
 *   (`&quot;`, `&#228;`, `&#xE4;`), percent-encoded, or several of these nested (an XML payload
 *   inside a JSON string). The text is decoded layer by layer and every layer is searched for
 *   every needle, so a secret split over escapes of any mix is found.
 * Case: a secret that looks like a credential (see caseFoldable) is also found with its case
 * changed; one made of letters only could be an ordinary word, so only its exact case counts.
 */

import { decodedLayers } from './decoded-layers';

/** One way a secret can appear: the name of the form and the text searched for. */
export interface SecretForm {
  /** `raw`, `url`, `url-lower`, `form`, `base64+1`, `base64url+2`, ... */
  readonly form: string;
  readonly bytes: Buffer;
}

/**
 * Shorter base64 fragments than this are not searched: a core of 1 to 3 characters turns up in
 * any base64 text by chance. A secret shorter than 3 bytes is found in its other forms only.
 */
const MIN_BASE64_CORE = 4;
/** A case-changed secret is told apart from ordinary text from this length on (see caseFoldable). */
const MIN_CASE_FOLD_LENGTH = 8;

/**
 * The base64 characters that a secret determines on its own when it starts `shift` bytes into a
 * longer encoded value (a Basic header encodes `key:secret`, so the secret rarely starts a group):
 * the characters touched by the bytes before or after it are cut off.
 */
export function base64Core(secret: Buffer, shift: 0 | 1 | 2): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), secret])
    .toString('base64')
    .replace(/=+$/, '');
  const total = shift + secret.length;
  const start = Math.ceil((8 * shift) / 6);
  const end = 4 * Math.floor(total / 3) + Math.floor((8 * (total % 3)) / 6);
  return encoded.slice(start, end);
}

/**
 * Whether a case-changed copy of the secret counts as the secret: it is at least 8 characters
 * and holds something besides letters and spaces (a digit, a symbol), so it is no word or name
 * that ordinary text (a horse called `TESTUSER`) could hold in another case.
 */
export function caseFoldable(secret: string): boolean {
  return [...secret].length >= MIN_CASE_FOLD_LENGTH && /[^\p{L}\s]/u.test(secret);
}

/** The secret encoded on its own: raw, URL- and form-encoded, base64 and base64url at each alignment. */
export function secretForms(secret: string): SecretForm[] {
  const forms = new Map<string, string>();
  const add = (form: string, text: string) => {
    if (text !== '' && ![...forms.values()].includes(text)) forms.set(form, text);
  };
  add('raw', secret);
  const url = encodeURIComponent(secret);
  add('url', url);
  add(
    'url-lower',
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  );
  add('form', url.replace(/%20/g, '+'));
  const bytes = Buffer.from(secret, 'utf8');
  for (const shift of [0, 1, 2] as const) {
    const core = base64Core(bytes, shift);
    if (core.length < MIN_BASE64_CORE) continue;
    add(`base64+${shift}`, core);
    add(`base64url+${shift}`, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms].map(([form, text]) => ({ form, bytes: Buffer.from(text, 'utf8') }));
}

/** What is searched for one secret: its needles, exact and (when caseFoldable) lower-cased. */
export interface SecretNeedles {
  readonly exact: ReadonlyArray<{ readonly form: string; readonly text: string }>;
  /** Lower-cased needles of the forms whose case carries no meaning (not base64). */
  readonly folded: ReadonlyArray<{ readonly form: string; readonly text: string }>;
}

/**
 * The needles of a secret: the forms of the secret itself and, when the secret holds what looks
 * like an escape (`&amp;`, `\u0041`, `%41`), of its unescaped and NFC readings too, since every
 * layer of the text it is compared with has been unescaped the same way.
 */
export function secretNeedles(secret: string): SecretNeedles {
  // decodedLayers reads a secret as it reads text: an escape-looking secret is searched unescaped too.
  const variants = new Set<string>([secret, secret.normalize('NFC')]);
  for (const { text } of decodedLayers(secret)) variants.add(text);
  const exact = new Map<string, string>();
  [...variants].forEach((variant, n) => {
    for (const { form, bytes } of secretForms(variant)) {
      const text = bytes.toString('utf8');
      if ([...exact.values()].includes(text)) continue;
      exact.set(n === 0 ? form : `${form} of its reading ${n}`, text);
    }
  });
  const folded = new Map<string, string>();
  if (caseFoldable(secret)) {
    for (const [form, text] of exact) {
      if (form.startsWith('base64')) continue;
      const lower = text.toLowerCase();
      if (![...folded.values()].includes(lower)) folded.set(form, lower);
    }
  }
  const list = (m: Map<string, string>) => [...m].map(([form, text]) => ({ form, text }));
  return { exact: list(exact), folded: list(folded) };
}
