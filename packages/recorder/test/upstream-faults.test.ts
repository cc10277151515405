/**
 * The record command against an upstream that misbehaves the ways the control plane can make it:
 * a run of 503s with Retry-After, expired tokens, WebSocket and STOMP sessions closed by the
 * server, listen and events connections reset. Every message sent while the recorder can receive
 * it is written exactly once.
 */
import { eventually } from '@racedata/test-support';
import {
  expectNoSecret,
  injectXml,
  postJsonMessage,
  readLines,
  startPair,
  recordConnected,
  type RecordProcess,
  type SimPair,
  tempFolderEachTest,
} from './record-process';

const inTemp = tempFolderEachTest('record-faults-');

async function control(base: string, route: string, body: unknown): Promise<void> {
  const res = await fetch(`${base}/_sim/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${route}: ${res.status} ${await res.text()}`);
}

/** The same fault rule, twice, on both long polls: the JSON `events` and the legacy `listen`. */
async function faultLongPolls(pair: SimPair, action: Record<string, unknown>): Promise<void> {
  await control(pair.json.base, 'faults', {
    match: { transport: 'events', user: 'testuser' },
    action,
    times: 2,
  });
  await control(pair.legacy.base, 'faults', {
    match: { transport: 'listen', user: 'testuser' },
    action,
    times: 2,
  });
}

function postJson(pair: SimPair, channel: string, n: number): Promise<void> {
  return postJsonMessage(pair, { channel, date: '2026-05-11', trackId: 5, raceNr: 1, payload: { n } });
}

function inject(pair: SimPair, kind: 'Durable' | 'NonDurable', n: number): Promise<void> {
  const channel = kind === 'Durable' ? 'RaceDay' : 'TimeToStart';
  return injectXml(pair, channel, kind, `k${n}`, `<${channel} n="${n}"/>`);
}

/** The `n` of every line of a delivery, in file order. */
function numbers(out: string, folder: 'json' | 'legacy', delivery: string): number[] {
  return readLines(out, folder)
    .filter((line) => line.delivery === delivery)
    .map((line) =>
      folder === 'json'
        ? (line.payload as { n: number }).n
        : Number(/n="(\d+)"/.exec(String(line.xml))?.[1] ?? Number.NaN),
    );
}

function count(rec: RecordProcess, text: string): number {
  return rec.stderr().split(text).length - 1;
}

/** Both simulators' durable message `n`, then until the recorder has written both. */
async function durable(pair: SimPair, out: string, n: number): Promise<void> {
  await postJson(pair, 'RaceDayTrot', n);
  await inject(pair, 'Durable', n);
  await eventually(
    async () => numbers(out, 'json', 'durable').includes(n) && numbers(out, 'legacy', 'durable').includes(n),
    `durable message ${n} to be recorded`,
    10_000,
  );
}

async function transient(pair: SimPair, out: string, n: number): Promise<void> {
  await postJson(pair, 'TimeToStartTrot', n);
  await inject(pair, 'NonDurable', n);
  await eventually(
    async () =>
      numbers(out, 'json', 'transient').includes(n) && numbers(out, 'legacy', 'transient').includes(n),
    `transient message ${n} to be recorded`,
    10_000,
  );
}

test('503s, expired tokens, closed sessions and reset connections lose nothing and write nothing twice', async () => {
  const pair = await startPair();
  const out = inTemp('out');
  const rec = await recordConnected(pair, out, ['--from-event-id', '0']);
  await durable(pair, out, 1);
  await transient(pair, out, 1);

  // A 503 run with Retry-After on both long polls: messages sent meanwhile arrive after it.
  await faultLongPolls(pair, { type: 'status', status: 503, retryAfter: 1 });
  await durable(pair, out, 2);
  await durable(pair, out, 3);
  // Its log reaches us through a pipe, after the lines it wrote to the files: wait for it.
  await eventually(async () => rec.stderr().includes('"status":503'), 'the 503s in the log', 10_000);

  // Expired tokens: the next requests answer 401 until the recorder authenticates again.
  await control(pair.json.base, 'tokens/expire', { user: 'testuser' });
  await control(pair.legacy.base, 'tokens/expire', { user: 'testuser' });
  const authenticated = count(rec, '"msg":"authenticated"');
  await durable(pair, out, 4);
  await durable(pair, out, 5);
  // Both upstreams answered 401 and were authenticated again.
  await eventually(
    async () => count(rec, '"msg":"authenticated"') >= authenticated + 2,
    'the recorder to authenticate again with both upstreams',
    10_000,
  );

  // The server closes the event stream and the STOMP session: the recorder reconnects.
  const streams = count(rec, 'event stream authenticated');
  const stomps = count(rec, 'STOMP subscribed');
  await control(pair.json.base, 'connections/close', {
    user: 'testuser',
    transport: 'event-stream',
    code: 4000,
  });
  await control(pair.legacy.base, 'connections/close', { user: 'testuser', transport: 'stomp', code: 4000 });
  await eventually(
    async () => count(rec, 'event stream authenticated') > streams && count(rec, 'STOMP subscribed') > stomps,
    'the recorder to reconnect',
    10_000,
  );
  await transient(pair, out, 2);

  // Listen and events connections reset: the queue keeps what was not confirmed, events resume by id.
  await faultLongPolls(pair, { type: 'disconnect', reset: true });
  await durable(pair, out, 6);
  await durable(pair, out, 7);
  await durable(pair, out, 8);
  await transient(pair, out, 3);

  expect(await rec.interrupt()).toBe(0);
  expect(rec.stderr()).toContain('"reason":"ECONNRESET"');
  expect(numbers(out, 'json', 'durable')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(numbers(out, 'legacy', 'durable')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(numbers(out, 'json', 'transient')).toEqual([1, 2, 3]);
  expect(numbers(out, 'legacy', 'transient')).toEqual([1, 2, 3]);
  expectNoSecret(out, [rec.stdout(), rec.stderr()]);
}, 60_000);
