import http from 'node:http';
import fc from 'fast-check';

/** One fuzzed request to a /_sim/* route (or a sandbox's), as sent on its own connection. */
export interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Buffer | undefined;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly text: string;
  /** No answer within the client's time: only a journal wait or the stream may be held. */
  readonly held: boolean;
}

/** Sends the request on a fresh connection; reads at most 64 KB of the answer (the stream never ends). */
export function send(port: number, r: FuzzRequest, holdMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: r.method, path: r.path, headers: r.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            text: Buffer.concat(chunks).toString('utf8'),
            held: false,
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // An event stream never ends: its head and first events are what is checked.
          if (size > 65_536 || res.headers['content-type']?.startsWith('text/event-stream')) {
            req.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', () => undefined);
      },
    );
    req.setTimeout(holdMs, () => {
      req.destroy();
      resolve({ status: 0, contentType: undefined, text: '', held: true });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // The server may answer 413/431 and close while a huge body or head is still being sent.
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE')
        resolve({ status: -1, contentType: undefined, text: err.code, held: false });
      else reject(err);
    });
    req.end(r.body);
  });
}

/** Percent-encodes every byte but unreserved ones; keeps lone surrogates (as U+FFFD bytes). */
export function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export const DEEP_LEVELS = 100_000;

const weirdString = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('\ud800', 'NaN', '-0', '1e400', '9'.repeat(400), '', ' ', '%ZZ', '\u0000', '../..'),
);

const hugeNumber = fc.constantFrom('1e400', '-1e400', '9'.repeat(400), '1e-400', '2e308', '-0', '0.5');

const anyJson = fc.oneof(
  weirdString.map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : '1e999')),
  hugeNumber,
  fc.constantFrom('null', 'true', '[]', '{}', '""'),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
);

/** A body that is nearly right for some route: a valid one with one field swapped for junk. */
const nearlyValid = fc
  .tuple(
    fc.constantFrom<Record<string, unknown>>(
      { match: { path: '/nowhere/*' }, action: { type: 'status', status: 503 } },
      { match: { transport: 'authenticate' }, action: { type: 'delay', ms: 10 }, times: 2 },
      { match: { path: '/x' }, action: { type: 'status', status: 418, body: { a: 1 } }, forMs: 3_600_000 },
      { match: {}, action: { type: 'hold' } },
      { events: false, queues: false, journal: false, faults: false },
      { ms: 1000 },
      { user: 'testuser' },
      { code: 3000 },
      { action: 'pause' },
      { action: 'speed', intervalMs: 500 },
      { replay: false, longPollTimeoutMs: 1000 },
      {},
    ),
    fc.option(
      fc.tuple(fc.constantFrom('match', 'action', 'ms', 'user', 'code', 'action', 'x', 'times'), anyJson),
    ),
  )
  .map(([valid, swap]) => {
    if (swap === null) return JSON.stringify(valid);
    const [key, json] = swap;
    return JSON.stringify({ ...valid, [key]: '__SWAP__' }).replace('"__SWAP__"', json);
  });

const deep = (open: string, close: string, inner = '') =>
  open.repeat(DEEP_LEVELS) + inner + close.repeat(DEEP_LEVELS);
/** 100,000 levels: an array, an object, and a fault rule whose kept body is that deep. */
const deepBody = fc.constantFrom(
  deep('[', ']'),
  deep('{"a":', '}', '1'),
  `{"match":{"path":"/x"},"action":{"type":"status","status":418,"body":${deep('{"a":', '}', '1')}}}`,
);

const body = fc.oneof(
  { weight: 4, arbitrary: nearlyValid },
  { weight: 3, arbitrary: anyJson },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{', '{"ms":', '[1,2', '{"a":1}}', 'nul', '\ufeff{}', '{"ms":1000,"ms":1}'),
  },
  { weight: 1, arbitrary: deepBody },
  // Past MAX_BODY_BYTES (1 MB): 413.
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => `"${'x'.repeat(n * 600_000)}"`) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')) },
);

/** Query strings with the journal's and the stream's parameters, and junk. */
const query = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(
          'user',
          'transport',
          'channel',
          'kind',
          'since',
          'limit',
          'count',
          'timeout',
          'token',
        ),
        weirdString,
      ),
      fc.oneof(
        weirdString,
        fc.nat().map(String),
        hugeNumber,
        fc.constantFrom('testuser', 'delivered', 'received', 'listen', 'events', '0', '600000', '-1'),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) =>
    pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}`,
  );

const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16le',
  'application/json; charset=klingon',
  'text/xml',
);

const headers = fc
  .record(
    {
      'content-type': contentType,
      origin: fc.constantFrom('http://127.0.0.1', 'http://evil.example', 'null', 'file://'),
      host: fc.constantFrom('127.0.0.1', 'evil.example', 'localhost:1', '[::1]', 'a'.repeat(300)),
      authorization: fc.constantFrom('Bearer x', 'Bearer ', 'Basic Og==', 'x'.repeat(2000)),
      'last-event-id': fc.oneof(weirdString.map(encode), hugeNumber, fc.constantFrom('5', '-1', '1e3')),
      'x-pad': fc.integer({ min: 1, max: 40 }).map((k) => 'p'.repeat(k * 1000)),
      accept: fc.constantFrom('text/event-stream', '*/*', 'text/html'),
    },
    { requiredKeys: [] },
  )
  .map(
    (h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>,
  );

/**
 * Random requests at the routes: each template's {id} or {seq} filled from `ids` (existing fault
 * and sandbox ids, so a delete can hit) or junk; sometimes under a sandbox's prefix, with a
 * trailing slash, or in another case.
 */
export function fuzzRequest(
  templates: readonly string[],
  ids: () => readonly string[],
): fc.Arbitrary<FuzzRequest> {
  const idText = fc.oneof(
    fc.constant('__EXISTING__'),
    weirdString.map(encode),
    fc.constantFrom('%zz', '%', '1', '0', '99999999999999999999', 'a%2Fb', '..'),
  );
  const path = fc
    .tuple(
      fc.constantFrom(...templates),
      idText,
      fc.constantFrom('', '', '', '/', '//', '.json', '?'),
      fc.constantFrom('none', 'none', 'none', 'sandbox', 'upper'),
      query,
    )
    .map(([template, id, tail, variant, q]) => {
      const existing = ids();
      const pick = id === '__EXISTING__' ? (existing[existing.length - 1] ?? 'none') : id;
      let p = template.replace(/\{[a-z]+\}/, pick) + tail;
      if (variant === 'upper') p = p.toUpperCase();
      if (variant === 'sandbox') p = `/sandboxes/${existing[0] ?? 'none'}${p}`;
      return p + q;
    });
  return fc
    .record({
      method: fc.constantFrom(
        'GET',
        'GET',
        'POST',
        'POST',
        'POST',
        'DELETE',
        'PUT',
        'PATCH',
        'HEAD',
        'OPTIONS',
      ),
      path,
      headers,
      body: fc.option(
        body.map((t) => Buffer.from(t, 'utf8')),
        { nil: undefined },
      ),
    })
    .map((r) => Object.assign(r, { [fc.toStringMethod]: () => describeRequest(r) }));
}

/** A counterexample short enough to read: a 100,000-level body is shown by its size and start. */
export function describeRequest(r: FuzzRequest): string {
  const headers = Object.entries(r.headers).map(
    ([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 40)}... (${v.length})` : v}`,
  );
  const body =
    r.body === undefined
      ? 'no body'
      : `${r.body.length} B ${JSON.stringify(r.body.subarray(0, 80).toString('utf8'))}`;
  return `${r.method} ${r.path.slice(0, 200)} [${headers.join('; ')}] ${body}`;
}
