import { matchSecrets } from './secret-matcher';
import { secretNeedles, type SecretNeedles } from './secret-forms';

export interface SecretFinding {
  /** Index of the secret in the list it was searched with (never the secret itself). */
  readonly secret: number;
  /** The form it was found in: `raw`, `base64+1`, `raw (unescaped once)`, `url (as written, case changed)`... */
  readonly form: string;
  /** 1-based line of the first occurrence. */
  readonly line: number;
  /** Byte offset of the first occurrence (of its line, when it was found only once unescaped). */
  readonly offset: number;
}

/**
 * Where any of `secrets` occurs in `bytes`, in any form secret-forms.ts defines (the forms the
 * recorder's write-time guard refuses): raw, escaped inside JSON or XML, URL-encoded, base64 at
 * any alignment, case-changed where that tells. Searched line by line, since escaping never spans
 * lines of a recording. One finding per secret, with no secret text in it, so a test failure or
 * a log line does not repeat it.
 */
export function findSecrets(bytes: Uint8Array | string, secrets: readonly string[]): SecretFinding[] {
  const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8');
  const needles = secrets.map((secret) => secretNeedles(secret));
  const findings: SecretFinding[] = [];
  const open = new Set(needles.keys());
  let offset = 0;
  let line = 0;
  for (const lineText of text.split('\n')) {
    line += 1;
    if (open.size === 0) break;
    const looking = [...open];
    for (const match of matchSecrets(
      lineText,
      looking.map((i) => needles[i] as SecretNeedles),
    )) {
      const secret = looking[match.secret] as number;
      open.delete(secret);
      const within = match.asWritten ? Buffer.byteLength(lineText.slice(0, match.index)) : 0;
      findings.push({ secret, form: match.form, line, offset: offset + within });
    }
    offset += Buffer.byteLength(lineText) + 1;
  }
  return findings.sort((a, b) => a.secret - b.secret);
}

/** The secrets a key/secret pair puts at risk: each, and the `key:secret` a Basic header encodes. */
export function credentialSecrets(key: string, secret: string): string[] {
  return [key, secret, `${key}:${secret}`].filter((s) => s !== '');
}

const SCRUBBED = '[secret]';

/**
 * `text` with every form of every secret replaced by `[secret]`: for a line that must quote
 * something from outside (an upstream error body, a URL) that might carry one. A secret that is
 * there only once unescaped cannot be cut out of the text as written: then the whole text goes.
 */
export function scrubSecrets(
  text: string,
  secrets: readonly string[] | ReadonlyArray<SecretNeedles>,
): string {
  const needles = secrets.map((s) => (typeof s === 'string' ? secretNeedles(s) : s));
  const exact = needles.flatMap((n) => n.exact.map((f) => f.text));
  const folded = needles.flatMap((n) => n.folded.map((f) => f.text));
  // Longest first, so a form that contains another is replaced whole.
  exact.sort((a, b) => b.length - a.length);
  folded.sort((a, b) => b.length - a.length);
  let out = text;
  for (const form of exact) if (out.includes(form)) out = out.split(form).join(SCRUBBED);
  for (const form of folded) {
    if (!out.toLowerCase().includes(form)) continue;
    out = out.replace(new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu'), SCRUBBED);
  }
  return matchSecrets(out, needles, true).length > 0 ? SCRUBBED : out;
}
