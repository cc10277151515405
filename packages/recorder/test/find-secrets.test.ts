import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { credentialSecrets, findSecrets, findSecretsInFiles, scrubSecrets } from '@racedata/recorder';

const KEY = 'prod-key-4711';
const SECRET = 's3cr3t/+Pässword&x';

test('finds a secret raw, JSON-escaped, URL-encoded (either case), form-encoded and in base64/base64url', () => {
  const forms: Record<string, string> = {
    raw: `secret=${SECRET}`,
    json: JSON.stringify({ s: 'a"b' }),
    url: `?secret=${encodeURIComponent(SECRET)}`,
    'url-lower': `?secret=${encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())}`,
    'base64+0': Buffer.from(SECRET).toString('base64'),
  };
  expect(findSecrets(forms.raw!, [SECRET]).map((f) => f.form)).toEqual(['raw']);
  expect(findSecrets(forms.json!, ['a"b']).map((f) => f.form)).toEqual(['json']);
  expect(findSecrets(forms.url!, [SECRET]).map((f) => f.form)).toContain('url');
  expect(findSecrets(forms['url-lower']!, [SECRET]).map((f) => f.form)).toContain('url-lower');
  expect(findSecrets('a=b+c', ['b c']).map((f) => f.form)).toEqual(['form']);
  expect(findSecrets(forms['base64+0']!, [SECRET]).map((f) => f.form)).toContain('base64+0');
  // base64 and base64url differ only where the encoding has "+" or "/": this one has both.
  const slashy = 'ab??>>??';
  expect(Buffer.from(slashy).toString('base64')).toMatch(/\+.*\/|\/.*\+/);
  expect(findSecrets(Buffer.from(slashy).toString('base64url'), [slashy]).map((f) => f.form)).toEqual([
    'base64url+0',
  ]);
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

test('a finding never repeats the secret; text without it has none', () => {
  const found = findSecrets(`x${SECRET}`, [SECRET]);
  expect(JSON.stringify(found)).not.toContain(SECRET);
  expect(found).toEqual([{ secret: 0, form: 'raw', offset: 1 }]);
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom(...'abcdefghij0123456789 {}:"'.split('')) }), (text) => {
      expect(findSecrets(text, [SECRET, KEY])).toEqual([]);
    }),
  );
});

test('scrubSecrets removes every form of every secret from a line', () => {
  const line = `GET /x?k=${encodeURIComponent(SECRET)} auth=Basic ${Buffer.from(`${KEY}:${SECRET}`).toString('base64')} raw=${SECRET}`;
  const scrubbed = scrubSecrets(line, credentialSecrets(KEY, SECRET));
  expect(findSecrets(scrubbed, credentialSecrets(KEY, SECRET))).toEqual([]);
  expect(scrubbed).toContain('GET /x?k=[secret]');
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
