import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closeAll, startSim } from './helpers';

// /_sim/docs/ over a real socket, with a docs folder made for the test: beside it lie files that
// no request may reach, whatever the path says. Requests go through node:http with the target
// as written, since fetch would resolve `..` before sending.

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function send(
  base: string,
  target: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: target,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const SECRET = 'the-secret-no-request-reaches';
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'docs-site-'));
  mkdirSync(path.join(root, 'docs'));
  writeFileSync(
    path.join(root, 'docs', 'guide.md'),
    [
      '# A guide',
      '',
      'What it is for. See [the other page](other.md#second-part), [below](#details),',
      '[the README](../README.md), [a recording](../recordings/README.md), [a site](https://example.com/)',
      'and [a trap](javascript:alert(1)).',
      '',
      '<script>alert(1)</script>',
      '',
      '![a picture](shot.png)',
      '',
      '## Details',
      '',
      '```sh',
      'echo "<b>not bold</b>"',
      '```',
    ].join('\n'),
  );
  writeFileSync(path.join(root, 'docs', 'other.md'), '# Other\n\nText.\n\n## Second part\n\nMore.\n');
  writeFileSync(path.join(root, 'docs', 'shot.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  writeFileSync(path.join(root, 'docs', 'notes.txt'), SECRET);
  writeFileSync(path.join(root, 'docs', '.hidden.md'), SECRET);
  writeFileSync(path.join(root, 'README.md'), '# Read me\n\nThe front door: [guide](docs/guide.md).\n');
  writeFileSync(path.join(root, 'secret.md'), SECRET);
  writeFileSync(path.join(root, 'package.json'), SECRET);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(closeAll);

const start = async (settings = {}) => (await startSim(settings, { docsRoot: root })).base;

test('the index lists the pages with their titles and first paragraphs; /_sim/docs leads to it', async () => {
  const base = await start();
  const bare = await send(base, '/_sim/docs');
  expect([bare.status, bare.headers.location]).toEqual([302, 'docs/']);
  const index = await send(base, '/_sim/docs/');
  expect(index.status).toBe(200);
  expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(index.text).toContain('<a href="guide.md">A guide</a>');
  expect(index.text).toContain('<a href="README.md">Read me</a>');
  // The lead's own anchor leads to the page it is on, not to the index.
  expect(index.text).toContain('<a href="guide.md#details">below</a>');
  expect(index.text).not.toContain(SECRET);
});

test('a page: anchors on headings, links between pages kept relative, links elsewhere made safe, raw HTML shown as text', async () => {
  const base = await start();
  const page = await send(base, '/_sim/docs/guide.md');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(page.headers['x-content-type-options']).toBe('nosniff');
  expect(page.headers['x-frame-options']).toBe('DENY');
  const csp = String(page.headers['content-security-policy']);
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src|unsafe/);
  expect(page.text).toContain('<h1 id="a-guide">');
  expect(page.text).toContain('<h2 id="details">');
  expect(page.text).toContain('<a href="other.md#second-part">the other page</a>');
  expect(page.text).toContain('<a href="guide.md#details">below</a>');
  expect(page.text).toContain('<a href="README.md">the README</a>');
  expect(page.text).toMatch(
    /<span class="elsewhere" title="In the repository: recordings\/README.md[^"]*">a recording<\/span>/,
  );
  expect(page.text).toContain('<a href="https://example.com/" rel="noopener noreferrer">a site</a>');
  expect(page.text).not.toContain('javascript:');
  expect(page.text).not.toContain('<script>');
  expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  expect(page.text).toContain('&lt;b&gt;not bold&lt;/b&gt;');
  expect(page.text).toContain('<img src="shot.png" alt="a picture">');
  // The README's links into docs/ lead to the same pages.
  expect((await send(base, '/_sim/docs/README.md')).text).toContain('<a href="guide.md">guide</a>');
  const other = await send(base, '/_sim/docs/other.md');
  expect(other.text).toContain('<h2 id="second-part">');
});

test('images and the stylesheet with their content types', async () => {
  const base = await start();
  const image = await send(base, '/_sim/docs/shot.png');
  expect([image.status, image.headers['content-type'], image.headers['content-length']]).toEqual([
    200,
    'image/png',
    '8',
  ]);
  const style = await send(base, '/_sim/docs/_docs.css');
  expect([style.status, style.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
});

test('HEAD has the headers and no body; If-None-Match with the ETag is answered 304', async () => {
  const base = await start();
  const got = await send(base, '/_sim/docs/guide.md');
  const head = await send(base, '/_sim/docs/guide.md', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.text).toBe('');
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(got.text)));
  expect(head.headers.etag).toBe(got.headers.etag);
  const etag = String(got.headers.etag);
  const again = await send(base, '/_sim/docs/guide.md', { headers: { 'if-none-match': `W/"x", ${etag}` } });
  expect([again.status, again.text, again.headers.etag]).toEqual([304, '', etag]);
  const stale = await send(base, '/_sim/docs/guide.md', { headers: { 'if-none-match': '"stale"' } });
  expect(stale.status).toBe(200);
});

test.each([
  '/_sim/docs/../secret.md',
  '/_sim/docs/../../secret.md',
  '/_sim/docs/%2e%2e/secret.md',
  '/_sim/docs/%2E%2E/package.json',
  '/_sim/docs/..%2fsecret.md',
  '/_sim/docs/..%2Fpackage.json',
  '/_sim/docs/..%5csecret.md',
  '/_sim/docs/..\\secret.md',
  '/_sim/docs/%5c..%5csecret.md',
  '/_sim/docs/%2Ftmp%2Fsecret.md',
  '/_sim/docs//etc/passwd',
  '/_sim/docs/%2fetc%2fpasswd',
  '/_sim/docs/notes.txt',
  '/_sim/docs/.hidden.md',
  '/_sim/docs/guide.md%00.png',
  '/_sim/docs/%e0%a4%a',
  '/_sim/docs/docs/guide.md',
])('%s reaches no file outside the served pages: 404 with the usual error shape', async (target) => {
  const base = await start();
  const answer = await send(base, target);
  expect(answer.text).not.toContain(SECRET);
  expect(answer.status).toBe(404);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(JSON.parse(answer.text)).toMatchObject({ status: 'fail', code: 'NOT_FOUND' });
});

test('an unknown page names itself and the index; HEAD of one is a 404 too', async () => {
  const base = await start();
  const answer = await send(base, '/_sim/docs/nothing.md');
  expect(JSON.parse(answer.text)).toEqual({
    status: 'fail',
    code: 'NOT_FOUND',
    message: 'no docs page "nothing.md": the pages are listed at /_sim/docs/',
  });
  expect((await send(base, '/_sim/docs/nothing.md', { method: 'HEAD' })).status).toBe(404);
});

test('without a docs folder (the npm package) every page is 404 and says where to read them', async () => {
  const { base } = await startSim();
  const answer = await send(base, '/_sim/docs/guide.md');
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.text)).toMatchObject({
    code: 'NOT_FOUND',
    message: expect.stringContaining('docs/'),
  });
});

test('with CONTROL_TOKEN the pages take it as the console does: header, ?token= or the cookie', async () => {
  const base = await start({ controlToken: 'sesame' });
  expect((await send(base, '/_sim/docs/guide.md')).status).toBe(401);
  expect(
    (await send(base, '/_sim/docs/guide.md', { headers: { authorization: 'Bearer sesame' } })).status,
  ).toBe(200);
  const viaQuery = await send(base, '/_sim/docs/guide.md?token=sesame');
  expect(viaQuery.status).toBe(200);
  expect(
    (await send(base, '/_sim/docs/other.md', { headers: { cookie: 'racedata_sim_control=sesame' } })).status,
  ).toBe(200);
});

test('a Host the control plane does not answer to is refused, as on every /_sim/ route', async () => {
  const base = await start();
  const answer = await send(base, '/_sim/docs/guide.md', { headers: { host: 'attacker.example' } });
  expect(answer.status).toBe(403);
  expect(JSON.parse(answer.text)).toMatchObject({ code: 'CONTROL_HOST_REFUSED' });
});

test('a page edited on disk is served as edited (a checkout being worked on)', async () => {
  const base = await start();
  const file = path.join(root, 'docs', 'other.md');
  const before = await send(base, '/_sim/docs/other.md');
  writeFileSync(file, '# Other, edited\n\nNew text that is longer than before.\n');
  try {
    const after = await send(base, '/_sim/docs/other.md');
    expect(after.text).toContain('<h1 id="other-edited">');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  } finally {
    writeFileSync(file, '# Other\n\nText.\n\n## Second part\n\nMore.\n');
  }
});
