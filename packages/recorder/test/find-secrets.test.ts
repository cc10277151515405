import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { credentialSecrets, findSecrets, findSecretsInFiles, scrubSecrets } from '@racedata/recorder';
import { SecretGuard } from '../src/secret-guard';
import { encodings, HARD_SECRETS, SPECIAL_UNITS } from './secret-encodings';

const KEY = 'prod-key-4711';
const SECRET = 's3cr3t/+Pässword&x';

test('finds a secret raw, URL-encoded (either case), form-encoded and in base64/base64url', () => {
  const forms = (text: string, secrets: string[]) => findSecrets(text, secrets).map((f) => f.form);
  expect(forms(`secret=${SECRET}`, [SECRET])).toEqual(['raw']);
  expect(forms(`?secret=${encodeURIComponent(SECRET)}`, [SECRET])).toEqual(['url']);
  const lower = encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());
  expect(forms(`?secret=${lower}`, [SECRET])).toEqual(['url-lower']);
  expect(forms('a=b+c', ['b c'])).toEqual(['form']);
  expect(forms(Buffer.from(SECRET).toString('base64'), [SECRET])).toEqual(['base64+0']);
  // base64 and base64url differ only where the encoding has "+" or "/": this one has both.
  const slashy = 'ab??>>??';
  expect(Buffer.from(slashy).toString('base64')).toMatch(/\+.*\/|\/.*\+/);
  expect(forms(Buffer.from(slashy).toString('base64url'), [slashy])).toEqual(['base64url+0']);
});

test('finds a secret escaped inside JSON and XML text, and says it was found unescaped', () => {
  const forms = (text: string, secrets: string[]) => findSecrets(text, secrets).map((f) => f.form);
  expect(forms(JSON.stringify({ s: 'a"b\\c' }), ['a"b\\c'])).toEqual(['raw (unescaped json+xml+url)']);
  expect(forms('<a s="Sec&quot;ret&amp;"/>', ['Sec"ret&'])).toEqual(['raw (unescaped json+xml+url)']);
  // An XML payload inside a JSON string inside a JSON string (a STOMP body in a line): two layers.
  const line = JSON.stringify({ body: JSON.stringify({ xml: '<a s="Se\\c&amp;ret&#34;"/>' }) });
  expect(forms(line, ['Se\\c&ret"'])).toEqual(['raw (unescaped json+xml+url, then json+xml+url)']);
});

// From 4 bytes on, every alignment leaves at least 4 base64 characters that only the secret decides.
test('finds a secret of 4 bytes or more inside any base64 value, at any offset (a Basic header encodes key:secret)', () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 10 }),
      fc.string({ minLength: 4, maxLength: 40 }),
      fc.string({ maxLength: 10 }),
      fc.boolean(),
      (before, secret, after, url) => {
        const value = Buffer.from(before + secret + after, 'utf8');
        const encoded = url ? value.toString('base64url') : `Basic ${value.toString('base64')}`;
        expect(findSecrets(encoded, [secret]).length).toBeGreaterThan(0);
      },
    ),
    { numRuns: 500 },
  );
  const header = `authorization: Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')}`;
  const found = findSecrets(header, credentialSecrets(KEY, SECRET));
  expect(new Set(found.map((f) => f.secret))).toEqual(new Set([0, 1, 2]));
});

test.each(HARD_SECRETS)(
  'finds %j in every encoding of secret-encodings.ts, and so does the guard',
  (secret) => {
    const guard = new SecretGuard();
    guard.add(secret, 'secret');
    for (const [name, encode] of Object.entries(encodings)) {
      const text = encode(secret);
      expect({ name, found: findSecrets(text, [secret]).length }).toEqual({ name, found: 1 });
      expect({ name, guarded: guard.contains(text) }).toEqual({ name, guarded: true });
    }
  },
);

// Any secret of quotes, backslashes, markup and non-ASCII, with each character encoded its own way
// (raw, \uXXXX, JSON escape, XML entity, numeric reference, percent), in a JSON string or an XML
// attribute, however the encodings mix.
test('finds a secret split over any mix of escapes, in a JSON string or in XML inside one', () => {
  const unit = fc.oneof(fc.constantFrom(...SPECIAL_UNITS), fc.string({ minLength: 1, maxLength: 1 }));
  const perChar = fc.constantFrom('raw', 'u', 'json', 'entity', 'dec', 'hex', 'pct') as fc.Arbitrary<string>;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(unit, perChar), { minLength: 4, maxLength: 24 }),
      fc.constantFrom('json', 'xml-in-json'),
      (chars, wrap) => {
        const secret = chars.map(([c]) => c).join('');
        fc.pre(secret.length >= 4);
        const escaped = chars.map(([c, how]) => escapeChar(c, how)).join('');
        const text =
          wrap === 'json'
            ? `{"payload":{"note":"${escaped}"}}`
            : JSON.stringify({ xml: `<Race note="${escaped}"/>` });
        expect(findSecrets(text, [secret]).length).toBe(1);
      },
    ),
    { numRuns: 1000 },
  );
});

function escapeChar(c: string, how: string): string {
  const code = c.codePointAt(0) as number;
  switch (how) {
    case 'u':
      return Array.from(
        { length: c.length },
        (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`,
      ).join('');
    case 'json':
      return JSON.stringify(c).slice(1, -1);
    case 'entity':
      return { '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;' }[c] ?? `&#${code};`;
    case 'dec':
      return `&#${code};`;
    case 'hex':
      return `&#x${code.toString(16).toUpperCase()};`;
    case 'pct':
      return encodeURIComponent(c) === c
        ? `%${Buffer.from(c).toString('hex').match(/../g)?.join('%')}`
        : encodeURIComponent(c);
    default:
      // Raw inside a JSON string still needs JSON's own escapes.
      return JSON.stringify(c).slice(1, -1);
  }
}

test('case: a secret that looks like a credential is found case-changed; a word is not', () => {
  expect(
    findSecrets('note: SEC"RET\\PW-2024'.toLowerCase(), ['Sec"ret\\Pw-2024']).map((f) => f.form),
  ).toEqual(['raw (as written, case changed)']);
  // Letters only: TESTUSER is a name a horse could have; only the exact case counts.
  expect(findSecrets('horse TESTUSER', ['testuser'])).toEqual([]);
  // Shorter than 8 characters: too likely in ordinary text in another case.
  expect(findSecrets('ABC-123', ['abc-123'])).toEqual([]);
});

test('a finding never repeats the secret; text without it has none', () => {
  const found = findSecrets(`x${SECRET}`, [SECRET]);
  expect(JSON.stringify(found)).not.toContain(SECRET);
  expect(found).toEqual([{ secret: 0, form: 'raw', line: 1, offset: 1 }]);
  expect(findSecrets(`a\nb\n{"s":"${SECRET.replace('&', '\\u0026')}"}`, [SECRET])).toEqual([
    { secret: 0, form: 'raw (unescaped json+xml+url)', line: 3, offset: 4 },
  ]);
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom(...'abcdefghij0123456789 {}:"&;#%\\'.split('')) }),
      (text) => {
        expect(findSecrets(text, [SECRET, KEY])).toEqual([]);
      },
    ),
  );
});

test('scrubSecrets removes every form of every secret from a line, or the whole line when one is only escaped there', () => {
  const line = `GET /x?k=${encodeURIComponent(SECRET)} auth=Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')} raw=${SECRET}`;
  const scrubbed = scrubSecrets(line, credentialSecrets(KEY, SECRET));
  expect(findSecrets(scrubbed, credentialSecrets(KEY, SECRET))).toEqual([]);
  expect(scrubbed).toContain('GET /x?k=[secret]');
  expect(scrubSecrets(`reason: ${JSON.stringify(`x${'a"b\\cdef'}`)}`, ['a"b\\cdef'])).toBe('[secret]');
});

test('findSecretsInFiles reads every file below a directory and names where it found one', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'find-secrets-'));
  mkdirSync(path.join(dir, 'json'));
  writeFileSync(path.join(dir, 'json', 'clean.jsonl'), '{"a":1}\n');
  writeFileSync(
    path.join(dir, 'json', 'leak.jsonl'),
    `{"token":"${Buffer.from(SECRET).toString('base64')}"}\n`,
  );
  const found = await findSecretsInFiles(dir, [KEY, SECRET]);
  expect(found.map((f) => [path.relative(dir, f.file), f.secret])).toEqual([
    [path.join('json', 'leak.jsonl'), 1],
  ]);
});
