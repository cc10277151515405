import http from 'node:http';
import net from 'node:net';
import { checkedClients } from '../clients/receipts';
import { jsonRequest, sleep, until } from '../harness/http';
import { PostLog, ReceiptLedger } from '../harness/ledger';
import { TOKEN, jsonDurableMessage, postJson } from '../harness/payloads';
import { postAtRate } from '../harness/schedule';
import { check } from '../types';
import type { Phase } from './config';

/** The one reader of the abuse run's messages: the built-in testuser, every message its own. */
export const READER = [{ key: 'testuser', token: TOKEN, channels: undefined }];

/**
 * Ordinary JSON traffic beside an abuse: durable posts at `rate` for `ms` and one reader following
 * `lastEventId`, so the journal fills with received and delivered entries and any message the
 * abuse makes the simulator lose shows.
 */
export function jsonTraffic(port: number, rate: number, ms: number) {
  const count = Math.round((rate * ms) / 1000);
  const ledger = new ReceiptLedger(new PostLog(count), READER, 1);
  const reader = checkedClients({ kind: 'json-polls', port, count: 1 }, ledger);
  const send = (seq: number, channel: string) => postJson(port, jsonDurableMessage(seq, channel));
  const posting = reader.then(() => postAtRate(ledger.posts, rate, count, send, () => 'RaceDayTrot'));
  /** Once the posting is over, lets the reader catch up for up to 30 s; says what was lost. */
  return async function lost() {
    await posting;
    await until(() => ledger.missing() === 0, 30_000);
    (await reader).close();
    const { posts, odd } = ledger;
    const [lost, refused] = [ledger.missing(), posts.failed - posts.errors];
    const oddAnswers = odd.last ? `; ${odd.count} odd answers, the last: ${odd.last}` : '';
    // A network error is the client's race with a keep-alive socket the server closed, not a refusal.
    const what = `${posts.count} sent at ${rate}/s; ${refused} refused; ${posts.errors} network errors${oddAnswers}`;
    const value = `${lost} of ${posts.count - posts.failed} posted (${what})`;
    return check('messages lost', '0', value, !lost && !refused);
  };
}

const JSON_ENV = { LONG_POLL_TIMEOUT_MS: '1000' };

/**
 * Opens GET `path` on its own socket and never reads from it: a held request, or a stream whose
 * kernel buffers fill, then the server's.
 */
function nonReader(port: number, path: string): net.Socket {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    socket.pause();
  });
  return socket;
}

/** A console stream client that reads everything and counts the bytes. */
function streamReader(port: number): { bytes(): number; close(): void } {
  let bytes = 0;
  const req = http.get({ host: '127.0.0.1', port, path: '/_sim/stream', agent: false }, (res) => {
    res.on('data', (c: Buffer) => (bytes += c.length));
    res.on('error', () => undefined);
  });
  req.on('error', () => undefined);
  return { bytes: () => bytes, close: () => req.destroy() };
}

/** 2. Journal waits for more than will ever come, held while events are posted and read. */
export const journalWaits: Phase = {
  id: 2,
  name: 'journal-waits',
  title: 'journal waits',
  simulators: ['json'],
  env: JSON_ENV,
  async run(sims, config) {
    const c = config.journalWaits;
    const port = sims.json?.port as number;
    const wait = '/_sim/journal/wait?kind=delivered&count=10000&timeout=600000';
    const waiters = Array.from({ length: c.waiters }, () => nonReader(port, wait));
    const lost = jsonTraffic(port, c.postsPerSecond, c.durationMs);
    await sleep(c.durationMs);
    // The abuse ends first; then the reader reads back everything posted (the store is durable).
    for (const w of waiters) w.destroy();
    return {
      checks: [await lost()],
      rssBudget: {
        mb: 4,
        why: 'the journal (JOURNAL_MAX, 10,000 entries of ~300 B); held waits are capped by JOURNAL_WAITERS_MAX',
      },
    };
  },
};

/** 3. Console stream clients that never read while journal entries are produced fast. */
export const streamNonReaders: Phase = {
  id: 3,
  name: 'stream-non-readers',
  title: 'console stream clients that never read',
  simulators: ['json'],
  env: JSON_ENV,
  async run(sims, config) {
    const c = config.streamNonReaders;
    const port = sims.json?.port as number;
    const stuck = Array.from({ length: c.clients }, () => nonReader(port, '/_sim/stream'));
    const reader = streamReader(port);
    const lost = jsonTraffic(port, c.postsPerSecond, c.durationMs);
    await sleep(c.durationMs);
    const bytes = reader.bytes();
    reader.close();
    for (const s of stuck) s.destroy();
    const served = check('reading stream client served', '> 0 bytes', `${bytes} bytes`, bytes > 0);
    return {
      checks: [await lost(), served],
      rssBudget: {
        mb: 4 * c.clients,
        why: `${c.clients} stalled clients x 4 MiB (CONSOLE_STREAM_MAX_BUFFERED_BYTES; CONSOLE_STREAMS_MAX refuses the rest)`,
      },
    };
  },
};

/** 4. Fault rules with large bodies, as many as the server takes, and a stream reader counting bytes. */
export const faultBodies: Phase = {
  id: 4,
  name: 'fault-bodies',
  title: 'fault rules with large bodies',
  simulators: ['json'],
  env: JSON_ENV,
  async run(sims, config) {
    const c = config.faultBodies;
    const port = sims.json?.port as number;
    const reader = streamReader(port);
    const started = Date.now();
    let accepted = 0;
    let lastRefusal = '';
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < c.rules; i++) {
      const rule = {
        match: { path: `/nowhere/${i}` },
        action: { type: 'status', status: 418, body: 'x'.repeat(c.bodyBytes) },
      };
      const res = await jsonRequest(port, 'POST', '/_sim/faults', rule, agent);
      if (res.status === 201) accepted++;
      else {
        lastRefusal = `${res.status} ${res.body.toString('utf8').slice(0, 160)}`;
        break;
      }
    }
    await sleep(c.holdMs);
    const seconds = (Date.now() - started) / 1000;
    const bytes = reader.bytes();
    reader.close();
    await jsonRequest(port, 'DELETE', '/_sim/faults', undefined, agent);
    agent.destroy();
    const mbPerSecond = bytes / 2 ** 20 / seconds;
    const rules = `${accepted} of ${c.rules} x ${(c.bodyBytes / 1e6).toFixed(1)} MB${lastRefusal ? `; then ${lastRefusal}` : ''}`;
    const stream = `${(bytes / 2 ** 20).toFixed(1)} MB in ${seconds.toFixed(1)} s (${mbPerSecond.toFixed(2)} MB/s)`;
    return {
      checks: [
        check('rules accepted', 'measured', rules, true),
        check('console stream bytes to one reader', '< 1 MB/s', stream, mbPerSecond < 1),
      ],
      rssBudget: {
        mb: 1,
        why: 'one MAX_BODY_BYTES body at a time; rules are capped by FAULT_RULES_MAX x FAULT_BODY_MAX_BYTES',
      },
    };
  },
};
