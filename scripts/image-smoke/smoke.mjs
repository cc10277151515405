#!/usr/bin/env node
// Black-box smoke client for the container images (driven by scripts/test-images.sh).
// It only talks HTTP/WebSocket to published ports; it knows nothing of the sources.
//
//   node smoke.mjs free-ports N                       N free TCP ports on 127.0.0.1, one a line
//   node smoke.mjs wait-health URL KIND [TIMEOUT_MS]  until GET URL/health says simulator KIND
//   node smoke.mjs suite --json URL --legacy URL [--json-replay URL] [--legacy-replay URL]
//                        [--short-poll-json URL] [--short-poll-legacy URL] [--replay-nonce N]
//   node smoke.mjs replayed --kind json|legacy --url URL --nonce N [--label TEXT]
//        until a message carrying N can be read (JSON events or legacy listen)
//   node smoke.mjs hold --json URL --legacy URL --ready-file F
//        opens a held long poll and a WebSocket on each simulator, writes F once they are
//        open, then reports how each ended when the containers are stopped (SIGTERM).
//
// Every check prints one line starting with PASS or FAIL; the exit code is the number of FAILs
// (capped at 100).
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

const FIXED_TOKEN = 'dGVzdHVzZXI='; // base64("testuser"), both simulators (README, Users and channels)
const ALL_TOKEN = 'YWxsdXNlcg=='; // JSON simulator user with every channel
const STOMP_DEST = '/api/v1/channels/user/topic/publish';

let failures = 0;
function pass(name, detail = '') {
  console.log(`PASS ${name}${detail ? ` (${detail})` : ''}`);
}
function fail(name, why) {
  failures += 1;
  console.log(`FAIL ${name}: ${why}`);
}
async function check(name, fn) {
  try {
    const detail = await fn();
    pass(name, typeof detail === 'string' ? detail : '');
  } catch (err) {
    fail(name, err instanceof Error ? err.message : String(err));
  }
}
function assert(cond, message) {
  if (!cond) throw new Error(message);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const today = () => new Date().toISOString().slice(0, 10);

async function http(method, url, { headers = {}, body, timeoutMs = 10000 } = {}) {
  const started = Date.now();
  const res = await fetch(url, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, ms: Date.now() - started };
}
function json(text) {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON: ${text.slice(0, 200)}`);
  }
}
const bearer = (token) => ({ authorization: `Bearer ${token}` });
const wsUrl = (base, path) => base.replace(/^http/, 'ws') + path;

/** Collects WebSocket messages; `next(pred)` resolves with the first (past or future) match. */
function collector(ws) {
  const seen = [];
  const waiters = [];
  ws.on('message', (data) => {
    const text = data.toString('utf8');
    seen.push(text);
    for (const w of [...waiters]) if (w.pred(text)) w.resolve(text);
  });
  return {
    seen,
    next(pred, timeoutMs, what) {
      const hit = seen.find(pred);
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const waiter = {
          pred,
          resolve: (text) => {
            clearTimeout(timer);
            waiters.splice(waiters.indexOf(waiter), 1);
            resolve(text);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${what} within ${timeoutMs} ms; got ${JSON.stringify(seen).slice(0, 300)}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
  };
}
function openWs(url, options = {}) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    const box = collector(ws);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`WebSocket ${url} did not open`));
    }, 5000);
    ws.once('open', () => {
      clearTimeout(timer);
      resolve({ ws, ...box });
    });
    ws.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
function closed(ws) {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) return resolve({ code: 'already closed' });
    ws.once('close', (code) => resolve({ code }));
  });
}

// ---- STOMP framing (just enough for a smoke test) ----------------------------------------
function stompFrame(command, headers = {}, body = '') {
  const lines = Object.entries(headers).map(([k, v]) => `${k}:${v}`);
  return `${command}\n${lines.join('\n')}\n\n${body}\0`;
}
/** Splits a received WebSocket text into STOMP frames (heart-beat EOLs are dropped). */
function parseFrames(text) {
  return text
    .split('\0')
    .map((f) => f.replace(/^[\r\n]+/, ''))
    .filter((f) => f.length > 0)
    .map((f) => {
      const sep = f.indexOf('\n\n');
      const head = sep < 0 ? f : f.slice(0, sep);
      const body = sep < 0 ? '' : f.slice(sep + 2);
      const [command, ...rest] = head.split('\n');
      const headers = {};
      for (const line of rest) {
        const i = line.indexOf(':');
        if (i > 0 && !(line.slice(0, i) in headers)) headers[line.slice(0, i)] = line.slice(i + 1);
      }
      return { command: command.replace(/\r$/, ''), headers, body };
    });
}
const isFrame =
  (command, extra = () => true) =>
  (text) =>
    parseFrames(text).some((f) => f.command === command && extra(f));

async function stompConnect(base) {
  const conn = await openWs(wsUrl(base, '/api/v1/channels/connect'), { headers: bearer(FIXED_TOKEN) });
  conn.ws.send(
    stompFrame('CONNECT', { 'accept-version': '1.0,1.1,1.2', host: 'localhost', 'heart-beat': '0,0' }),
  );
  const connected = await conn.next(isFrame('CONNECTED'), 5000, 'CONNECTED frame');
  const frame = parseFrames(connected).find((f) => f.command === 'CONNECTED');
  assert(frame.headers.version, 'CONNECTED has no version header');
  conn.ws.send(
    stompFrame('SUBSCRIBE', { id: 'sub-0', destination: STOMP_DEST, ack: 'auto', receipt: 'sub-0' }),
  );
  // A server that sends no RECEIPT still gets a moment to register the subscription.
  await conn.next(isFrame('RECEIPT'), 1000, 'RECEIPT').catch(() => undefined);
  return { ...conn, version: frame.headers.version };
}

// ---- checks both simulators share --------------------------------------------------------
async function expectHealthy(base, simulator) {
  const r = await http('GET', `${base}/health`);
  assert(r.status === 200, `status ${r.status}`);
  const body = json(r.text);
  assert(body.status === 'ok' && body.simulator === simulator, `body ${r.text}`);
}

/** The web console is in the image: GET / leads to it, the page and its script are served. */
async function expectConsole(base, simulator) {
  const root = await fetch(`${base}/`, { redirect: 'manual', signal: AbortSignal.timeout(10000) });
  assert(root.status === 302 && root.headers.get('location') === './_sim/ui', `GET / ${root.status}`);
  const page = await http('GET', `${base}/_sim/ui`);
  assert(page.status === 200 && page.text.includes(`data-simulator="${simulator}"`), `page ${page.status}`);
  const script = await http('GET', `${base}/_sim/ui/console.js`);
  assert(
    script.status === 200 && script.text.length > 10000,
    `console.js ${script.status}, ${script.text.length} chars`,
  );
  const catalog = json((await http('GET', `${base}/_sim/catalog`)).text);
  assert(
    catalog.channels.some((c) => c.sample !== null),
    'no catalog sample from the bundled recordings',
  );
  return `console.js ${Math.round(script.text.length / 1024)} KB`;
}

/** The production authentication path answers the default user with its fixed token. */
async function expectFixedToken(base) {
  const ok = await http('POST', `${base}/customerapi/authenticate/subscription/`, {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key: 'testuser', secret: 'testpassword' }),
  });
  assert(ok.status === 200, `status ${ok.status} ${ok.text}`);
  assert(
    ok.headers.get('authorization') === `Bearer ${FIXED_TOKEN}`,
    `authorization ${ok.headers.get('authorization')}`,
  );
}

// ---- JSON simulator checks ---------------------------------------------------------------
async function jsonChecks(base, { shortPoll, replay, replayNonce }) {
  const name = (n) => `json: ${n}`;
  await check(name('GET /health'), () => expectHealthy(base, 'json'));
  await check(name('web console at /_sim/ui'), () => expectConsole(base, 'json'));

  await check(
    name('authenticate (token in authorization header; wrong secret 401; no token 401)'),
    async () => {
      await expectFixedToken(base);
      const bad = await http('POST', `${base}/customerapi/authenticate/subscription`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'testuser', secret: 'nope' }),
      });
      assert(bad.status === 401, `wrong secret gave ${bad.status}`);
      const anon = await http('GET', `${base}/customerapi/events`);
      assert(anon.status === 401, `events without token gave ${anon.status}`);
    },
  );

  await check(name('durable message: POST /api/message then GET /customerapi/events'), async () => {
    const nonce = randomUUID();
    const post = await http('POST', `${base}/api/message`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        channel: 'RaceDayTrot',
        date: today(),
        trackId: 5,
        raceNr: 1,
        payload: { smoke: nonce },
      }),
    });
    assert(post.status === 201, `POST status ${post.status} ${post.text}`);
    const eventId = json(post.text).data?.event?.eventId;
    assert(Number.isInteger(eventId), `no eventId in ${post.text}`);
    const read = await http('GET', `${base}/customerapi/events?lastEventId=${eventId - 1}`, {
      headers: bearer(FIXED_TOKEN),
    });
    assert(read.status === 200, `events status ${read.status}`);
    const events = json(read.text).data?.events ?? [];
    assert(
      events.some((e) => JSON.stringify(e).includes(nonce)),
      `event not found in ${read.text.slice(0, 300)}`,
    );
    return `eventId ${eventId}`;
  });

  await check(name('transient message over /customerapi/event-stream'), async () => {
    const conn = await openWs(wsUrl(base, '/customerapi/event-stream'));
    try {
      await conn.next((t) => t.includes('"Connection"'), 5000, 'Connection message');
      conn.ws.send(`Bearer ${FIXED_TOKEN}`);
      await conn.next((t) => t.includes('"Authenticated"'), 5000, 'Authenticated message');
      const nonce = randomUUID();
      const post = await http('POST', `${base}/api/message`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          channel: 'TimeToStartTrot',
          date: today(),
          trackId: 5,
          raceNr: 1,
          payload: { smoke: nonce },
        }),
      });
      assert(post.status === 202, `POST status ${post.status} ${post.text}`);
      const data = json(await conn.next((t) => t.includes(nonce), 5000, 'Data message'));
      assert(
        data.type === 'Data' && data.data?.channel === 'TimeToStartTrot',
        `unexpected ${JSON.stringify(data)}`,
      );
      return `recipients ${json(post.text).data?.recipients}`;
    } finally {
      conn.ws.terminate();
    }
  });

  if (shortPoll) {
    await check(name('-e LONG_POLL_TIMEOUT_MS=500: empty poll answers 204 quickly'), async () => {
      const r = await http('GET', `${shortPoll}/customerapi/events?lastEventId=999999999`, {
        headers: bearer(FIXED_TOKEN),
      });
      assert(r.status === 204, `status ${r.status}`);
      assert(r.ms >= 300 && r.ms < 3000, `took ${r.ms} ms (expected about 500)`);
      return `${r.ms} ms`;
    });
  }

  if (replay) {
    await check(name('mounted /recordings replayed (AUTO_REPLAY_MESSAGE_INTERVAL=100)'), () =>
      expectReplayed('json', replay, replayNonce),
    );
  }
}

// ---- legacy simulator checks -------------------------------------------------------------
async function legacyChecks(base, { shortPoll, replay, replayNonce }) {
  const name = (n) => `legacy: ${n}`;
  await check(name('GET /health'), () => expectHealthy(base, 'legacy'));
  await check(name('web console at /_sim/ui'), () => expectConsole(base, 'legacy'));

  await check(
    name('authenticate (subscription and Basic; wrong secret 401; listen without token 401)'),
    async () => {
      await expectFixedToken(base);
      const basic = await http('POST', `${base}/authenticate`, {
        headers: { authorization: `Basic ${Buffer.from('testuser:testpassword').toString('base64')}` },
      });
      assert(basic.status === 200, `Basic authenticate gave ${basic.status}`);
      const bad = await http('POST', `${base}/customerapi/authenticate/subscription`, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key: 'testuser', secret: 'nope' }),
      });
      assert(bad.status === 401, `wrong secret gave ${bad.status}`);
      const anon = await http('GET', `${base}/customerapi/channels/listen`);
      assert(anon.status === 401, `listen without token gave ${anon.status}`);
    },
  );

  await check(
    name('durable message: POST /customerapi/channel/id/Durable then GET /customerapi/channels/listen'),
    async () => {
      const nonce = randomUUID();
      const xml = `<smoke nonce="${nonce}">durable</smoke>`;
      const post = await http('POST', `${base}/customerapi/channel/id/Durable?payloadKey=smoke`, {
        headers: { 'content-type': 'application/json' },
        body: xml,
      });
      assert(post.status >= 200 && post.status < 300, `POST status ${post.status} ${post.text}`);
      const read = await http('GET', `${base}/customerapi/channels/listen`, { headers: bearer(FIXED_TOKEN) });
      assert(read.status === 200, `listen status ${read.status}`);
      assert(json(read.text) === xml, `listen body ${read.text.slice(0, 300)}`);
    },
  );

  await check(name('transient message over STOMP (/api/v1/channels/connect, NonDurable post)'), async () => {
    const conn = await stompConnect(base);
    try {
      const nonce = randomUUID();
      const xml = `<xml>Hello, ${nonce}!</xml>`;
      const post = await http('POST', `${base}/customerapi/channel/id/NonDurable`, {
        headers: { 'content-type': 'application/json' },
        body: xml,
      });
      assert(post.status >= 200 && post.status < 300, `POST status ${post.status} ${post.text}`);
      const text = await conn.next(
        isFrame('MESSAGE', (f) => f.body.includes(nonce)),
        5000,
        'MESSAGE frame',
      );
      const frame = parseFrames(text).find((f) => f.command === 'MESSAGE');
      const body = json(frame.body.replace(/\0$/, ''));
      assert(body.payload === xml, `payload ${JSON.stringify(body.payload)}`);
      return `STOMP ${conn.version}`;
    } finally {
      conn.ws.terminate();
    }
  });

  if (shortPoll) {
    await check(name('-e LONG_POLL_TIMEOUT_MS=500: empty listen answers 204 quickly'), async () => {
      const r = await http('GET', `${shortPoll}/customerapi/channels/listen`, {
        headers: bearer(FIXED_TOKEN),
      });
      assert(r.status === 204, `status ${r.status} ${r.text.slice(0, 200)}`);
      assert(r.ms >= 300 && r.ms < 3000, `took ${r.ms} ms (expected about 500)`);
      return `${r.ms} ms`;
    });
  }

  if (replay) {
    await check(name('mounted /recordings replayed (AUTO_REPLAY_MESSAGE_INTERVAL=100)'), () =>
      expectReplayed('legacy', replay, replayNonce),
    );
  }
}

/** Waits until a message carrying `nonce` can be read: JSON events (all-channel user) or legacy listen. */
async function expectReplayed(kind, base, nonce, timeoutMs = 15000) {
  assert(nonce, 'no nonce given');
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const url =
      kind === 'json'
        ? `${base}/customerapi/events?lastEventId=0&limit=10000`
        : `${base}/customerapi/channels/listen`;
    // Legacy listen is a long poll: keep each attempt short, a held one just ends in a timeout.
    const r = await http('GET', url, {
      headers: bearer(kind === 'json' ? ALL_TOKEN : FIXED_TOKEN),
      timeoutMs: 3000,
    }).catch((err) => ({ status: 0, text: String(err) }));
    last = `${r.status} ${r.text.slice(0, 200)}`;
    if (r.status === 200 && r.text.includes(nonce)) {
      return kind === 'json' ? `${json(r.text).data.numberOfEvents} events` : 'recorded XML received';
    }
    if (kind === 'json' || r.status !== 200) await sleep(250);
  }
  throw new Error(`recorded message never arrived; last answer ${last}`);
}

// ---- held connections while the containers stop --------------------------------------------
async function hold(args) {
  const jsonBase = args.json;
  const legacyBase = args.legacy;
  const started = [];
  if (jsonBase) {
    const poll = http('GET', `${jsonBase}/customerapi/events?lastEventId=999999999`, {
      headers: bearer(FIXED_TOKEN),
      timeoutMs: 20000,
    });
    const stream = await openWs(wsUrl(jsonBase, '/customerapi/event-stream'));
    stream.ws.send(FIXED_TOKEN);
    await stream.next((t) => t.includes('"Authenticated"'), 5000, 'Authenticated message');
    started.push(
      [
        'json: held long poll answered on stop',
        poll.then((r) => {
          assert(r.status === 204, `status ${r.status}`);
          return `204 after ${r.ms} ms`;
        }),
      ],
      [
        'json: event-stream WebSocket closed on stop',
        closed(stream.ws).then(({ code }) => `close code ${code}`),
      ],
    );
  }
  if (legacyBase) {
    const poll = http('GET', `${legacyBase}/customerapi/channels/listen`, {
      headers: bearer(FIXED_TOKEN),
      timeoutMs: 20000,
    });
    const stomp = await stompConnect(legacyBase);
    started.push(
      [
        'legacy: held listen answered on stop',
        poll.then((r) => {
          assert(r.status === 204, `status ${r.status}`);
          return `204 after ${r.ms} ms`;
        }),
      ],
      ['legacy: STOMP WebSocket closed on stop', closed(stomp.ws).then(({ code }) => `close code ${code}`)],
    );
  }
  await sleep(200); // let the polls reach the server before the stop starts
  writeFileSync(args['ready-file'], 'ready\n');
  const limit = (p) =>
    Promise.race([
      p,
      sleep(15000).then(() => Promise.reject(new Error('still open 15 s after the stop began'))),
    ]);
  for (const [label, p] of started) await check(label, () => limit(p));
}

// ---- command line ------------------------------------------------------------------------
function options(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a.startsWith('--')) {
      out[a.slice(2)] = argv[i + 1];
      i += 1;
    }
  }
  return out;
}

async function freePorts(n) {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  for (const s of servers) console.log(s.address().port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
}

async function waitHealth(base, kind, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const r = await http('GET', `${base}/health`, { timeoutMs: 2000 });
      last = `${r.status} ${r.text}`;
      if (r.status === 200 && json(r.text).simulator === kind) return true;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await sleep(200);
  }
  console.error(`${kind} at ${base} not healthy after ${timeoutMs} ms (last: ${last})`);
  return false;
}

const [command, ...rest] = process.argv.slice(2);
const args = options(rest);
switch (command) {
  case 'free-ports':
    await freePorts(Number(rest[0] ?? 1));
    break;
  case 'wait-health':
    process.exit((await waitHealth(rest[0], rest[1], Number(rest[2] ?? 30000))) ? 0 : 1);
    break;
  case 'suite': {
    const replayNonce = args['replay-nonce'] ?? '';
    if (args.json)
      await jsonChecks(args.json, {
        shortPoll: args['short-poll-json'],
        replay: args['json-replay'],
        replayNonce,
      });
    if (args.legacy)
      await legacyChecks(args.legacy, {
        shortPoll: args['short-poll-legacy'],
        replay: args['legacy-replay'],
        replayNonce,
      });
    break;
  }
  case 'replayed': // --kind json|legacy --url URL --nonce N --label TEXT
    await check(args.label ?? `${args.kind}: replayed message arrived`, () =>
      expectReplayed(args.kind, args.url, args.nonce),
    );
    break;
  case 'hold':
    try {
      await hold(args);
    } catch (err) {
      fail('hold: open connections before stop', err.message);
      writeFileSync(args['ready-file'], 'failed\n');
    }
    break;
  default:
    console.error('usage: smoke.mjs free-ports N | wait-health URL KIND [MS] | suite ... | hold ...');
    process.exit(64);
}
process.exit(Math.min(failures, 100));
