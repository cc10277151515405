import fc from 'fast-check';
import { TOKENS } from '@racedata/test-support';
import { AUTH, closeAll, post, startSim, waitFor, type Running } from './support';

afterEach(closeAll);

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | string | undefined;
}

const printable = (max: number) => fc.stringMatching(new RegExp(`^[ -~]{0,${max}}$`));
const anyText = (max: number) => fc.string({ unit: 'binary', maxLength: max });

const xmlish = fc.oneof(
  fc.constantFrom(
    '<a/>',
    '<RaceDay/>',
    '<a>&amp;</a>',
    '<a>&#0;</a>',
    '<!DOCTYPE a><a/>',
    '',
    '<a>',
    '<a><b></a>',
  ),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/), anyText(40))
    .map(([tag, text]) => `<${tag}>${text}</${tag}>`),
  anyText(200),
);

const body = fc.oneof(
  xmlish,
  xmlish.map((s) => new TextEncoder().encode(s)),
  fc.uint8Array({ maxLength: 200 }),
  fc.constant(undefined),
);

const contentType = fc.constantFrom(
  'text/xml',
  'application/json',
  'application/xml; charset=utf-8',
  'text/xml; charset=ISO-8859-1',
  'text/xml; charset=utf-16le',
  'text/xml; charset=klingon',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
);

const conditional = fc.record(
  {
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"', 'garbage'),
    'if-modified-since': fc.constantFrom('Fri, 01 Jan 2100 00:00:00 GMT', 'nonsense'),
    'if-match': fc.constantFrom('*', '"z"'),
    'if-unmodified-since': fc.constant('Thu, 01 Jan 1970 00:00:00 GMT'),
    range: fc.constantFrom('bytes=0-0', 'bytes=-1', 'lines=1'),
  },
  { requiredKeys: [] },
);

const authorization = fc.oneof(
  fc.constant(`Bearer ${TOKENS.testuser}`),
  fc.constant(`Basic ${Buffer.from('testuser:testpassword').toString('base64')}`),
  printable(60),
);

const channel = fc.oneof(fc.constantFrom('id', 'RaceDay', 'StartList', 'Bogus'), anyText(80));
const query = fc.oneof(
  fc.constant(''),
  anyText(100).map((k) => `?payloadKey=${encodeURIComponent(k)}`),
  fc.constant('?payloadKey=a&payloadKey=b'),
  printable(40).map((q) => `?${encodeURIComponent(q)}=${encodeURIComponent(q)}`),
);

const injectRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'),
  path: fc
    .tuple(channel, fc.constantFrom('Durable', 'NonDurable', 'durable', 'Other'), query)
    .map(([c, d, q]) => `/customerapi/channel/${encodeURIComponent(c)}/${d}${q}`),
  headers: fc.record({ 'content-type': contentType }, { requiredKeys: [] }),
  body,
});

const listenRequest = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'DELETE'),
  path: query.map((q) => `/customerapi/channels/listen${q}`),
  headers: fc.tuple(conditional, fc.option(authorization, { nil: undefined })).map(([c, a]) => ({
    ...c,
    ...(a === undefined ? {} : { authorization: a }),
  })),
  body: fc.constant(undefined),
});

const authRequest = fc.record({
  method: fc.constantFrom('POST', 'POST', 'GET'),
  path: fc.constantFrom(
    '/customerapi/authenticate/subscription',
    '/customerapi/authenticate/subscription/',
    '/authenticate',
  ),
  headers: fc
    .tuple(
      fc.record({ 'content-type': contentType }, { requiredKeys: [] }),
      fc.option(authorization, { nil: undefined }),
    )
    .map(([h, a]) => ({ ...h, ...(a === undefined ? {} : { authorization: a }) })),
  body: fc.oneof(
    body,
    fc.constant('{"key":"testuser","secret":"testpassword"}'),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  ),
});

async function send(base: string, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const hasBody = request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD';
  const res = await fetch(base + request.path, {
    method: request.method,
    headers: request.headers,
    ...(hasBody ? { body: request.body } : {}),
  });
  return { status: res.status, text: await res.text() };
}

function checkShape(request: FuzzRequest, status: number, text: string): void {
  expect(status).toBeGreaterThanOrEqual(200);
  expect(status).toBeLessThan(500);
  if (request.method === 'HEAD' || status === 204) {
    expect(text).toBe('');
    return;
  }
  const body: unknown = JSON.parse(text);
  if (status >= 400) {
    expect(body).toEqual({
      status: 'fail',
      code: expect.stringMatching(/^[A-Z_]+$/),
      message: expect.any(String),
    });
    expect((body as { message: string }).message.length).toBeLessThan(600);
  } else if (request.path.startsWith('/customerapi/channels/listen')) {
    expect(typeof body).toBe('string');
  } else {
    expect(body).toMatchObject({ status: 'success' });
  }
}

async function drain(run: Running): Promise<string[]> {
  const got: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const res = await fetch(`${run.base}/customerapi/channels/listen`, { headers: AUTH });
    if (res.status === 204) return got;
    expect(res.status).toBe(200);
    got.push((await res.json()) as string);
  }
  throw new Error('queue did not drain');
}

it('answers random requests on every legacy route with 2xx/4xx of the documented shape, and the queue still works', async () => {
  const run = await startSim({ longPollTimeoutMs: 20, legacyQueueMax: 50 });
  await fc.assert(
    fc.asyncProperty(fc.oneof(injectRequest, listenRequest, authRequest), async (request) => {
      const { status, text } = await send(run.base, request);
      checkShape(request, status, text);
    }),
    { numRuns: 200, seed: 20260101 },
  );
  expect((await fetch(`${run.base}/health`)).status).toBe(200);
  await drain(run);
  await waitFor(() => run.probe.queues.totalLeased === 0, 'every delivery to settle', 15_000);
  expect(run.probe.queues.totalDepth).toBe(0);
  const known = Array.from({ length: 20 }, (_, i) => `<known n="${i}"/>`);
  for (const xml of known)
    expect((await post(run.base, '/customerapi/channel/id/Durable', xml)).status).toBe(200);
  expect(await drain(run)).toEqual(known);
}, 60_000);
