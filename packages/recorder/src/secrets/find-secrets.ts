import { secretForms, type SecretForm } from './secret-forms';

export interface SecretFinding {
  /** Index of the secret in the list it was searched with (never the secret itself). */
  readonly secret: number;
  readonly form: string;
  /** Byte offset of the first occurrence. */
  readonly offset: number;
}

/**
 * Where any of `secrets` occurs in `bytes`, raw or in a form it could have been written in
 * (JSON-escaped, URL-encoded, base64 at any alignment, as inside a Basic header). One finding per
 * secret and form, with no secret text in it, so a test failure or a log line does not repeat it.
 */
export function findSecrets(bytes: Uint8Array | string, secrets: readonly string[]): SecretFinding[] {
  const haystack = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  const findings: SecretFinding[] = [];
  secrets.forEach((secret, index) => {
    for (const { form, bytes: needle } of secretForms(secret)) {
      const offset = haystack.indexOf(needle);
      if (offset !== -1) findings.push({ secret: index, form, offset });
    }
  });
  return findings;
}

/** The secrets a key/secret pair puts at risk: each, and the `key:secret` a Basic header encodes. */
export function credentialSecrets(key: string, secret: string): string[] {
  return [key, secret, `${key}:${secret}`].filter((s) => s !== '');
}

/**
 * `text` with every form of every secret replaced by `[secret]`: for a line that must quote
 * something from outside (an upstream error body, a URL) that might carry one.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const forms: SecretForm[] = secrets.flatMap((secret) => secretForms(secret));
  // Longest first, so a form that contains another is replaced whole.
  forms.sort((a, b) => b.bytes.length - a.bytes.length);
  let out = text;
  for (const form of forms) out = out.split(form.bytes.toString('utf8')).join('[secret]');
  return out;
}
