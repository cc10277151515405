/** One way a secret can appear in written bytes. */
export interface SecretForm {
  /** `raw`, `json`, `url`, `base64+1`, `base64url+2`, ... */
  readonly form: string;
  readonly bytes: Buffer;
}

/**
 * Shorter base64 fragments than this are not searched: a core of 1 to 3 characters turns up in
 * any base64 text by chance. A secret shorter than 3 bytes is found in its other forms only.
 */
const MIN_BASE64_CORE = 4;

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

/** Every form a secret is searched for: raw, JSON-escaped, URL-encoded, and base64/base64url at each alignment. */
export function secretForms(secret: string): SecretForm[] {
  const forms = new Map<string, string>();
  const add = (form: string, text: string) => {
    if (text !== '' && ![...forms.values()].includes(text)) forms.set(form, text);
  };
  add('raw', secret);
  add('json', JSON.stringify(secret).slice(1, -1));
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
