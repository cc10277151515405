import WebSocket from 'ws';
import { killAllChildren, startChild } from './lib/child-server';
import { REPO_ROOT } from './run-bench';

/**
 * Two abusive STOMP clients against the legacy simulator in its own process:
 *  - flood: one 1 MB frame sent as 100,000 WebSocket messages of 10 bytes, while /health is asked;
 *  - subscribe storm: 3 sessions each sending 100,001 SUBSCRIBE frames, then a NonDurable post.
 * `npm run build && npx tsx bench/src/stomp-abuse-probe.ts` (the server runs from dist/); prints one
 * JSON line per scenario.
 */
const TOKEN = 'dGVzdHVzZXI=';
const HEADERS = { authorization: `Bearer ${TOKEN}` };

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: HEADERS });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Resolves with the first message whose text starts with `command`, or with 'closed'. */
function until(ws: WebSocket, command: string): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const text = data.toString('utf8');
      if (!text.startsWith(command)) return;
      ws.off('message', onMessage);
      resolve(text.split('\n')[0] as string);
    };
    ws.on('message', onMessage);
    ws.once('close', () => resolve('closed'));
  });
}

async function connect(url: string): Promise<WebSocket> {
  const ws = await open(url);
  const connected = until(ws, 'CONNECTED');
  ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
  await connected;
  return ws;
}

async function flood(base: string, url: string): Promise<Record<string, unknown>> {
  const ws = await connect(url);
  const head = 'SEND\ndestination:/queue/x\n\n';
  const total = 1_000_000;
  const frame = Buffer.alloc(total, 0x61);
  frame.write(head, 0, 'utf8');
  frame[total - 1] = 0;
  let done = false;
  const answered = until(ws, 'ERROR').then((first) => {
    done = true;
    return { first, ms: performance.now() - started };
  });
  const started = performance.now();
  for (let at = 0; at < total; at += 10) ws.send(frame.subarray(at, at + 10));
  // /health asked one after another for as long as the flood is being worked through.
  const healthMs: number[] = [];
  while (!done) {
    const asked = performance.now();
    const res = await fetch(`${base}/health`);
    await res.text();
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    healthMs.push(performance.now() - asked);
  }
  const result = await answered;
  ws.terminate();
  return {
    scenario: '1 MB frame in 100,000 ten-byte messages',
    serverAnswer: result.first,
    frameAnsweredMs: Math.round(result.ms),
    healthRequests: healthMs.length,
    firstHealthMs: Math.round(healthMs[0] ?? 0),
    worstHealthMs: Math.round(Math.max(...healthMs)),
  };
}

async function subscribeStorm(base: string, url: string): Promise<Record<string, unknown>> {
  const sessions = await Promise.all([0, 1, 2].map(() => connect(url)));
  const perSession = 100_001;
  const outcomes = await Promise.all(
    sessions.map((ws) => {
      const done = Promise.race([until(ws, 'RECEIPT'), until(ws, 'ERROR')]);
      for (let from = 0; from < perSession; from += 1000) {
        let batch = '';
        for (let id = from; id < Math.min(from + 1000, perSession); id++) {
          const receipt = id === perSession - 1 ? 'receipt:last\n' : '';
          batch += `SUBSCRIBE\nid:${id}\ndestination:/user/topic/publish\n${receipt}\n\0`;
        }
        ws.send(batch);
      }
      return done;
    }),
  );
  const timings: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/customerapi/channel/id/NonDurable`, { method: 'POST', body: '<a/>' });
    await res.text();
    timings.push(Math.round(performance.now() - started));
  }
  for (const ws of sessions) ws.terminate();
  return { scenario: '3 sessions x 100,001 SUBSCRIBE', sessionOutcomes: outcomes, postMs: timings };
}

async function main(): Promise<void> {
  const child = await startChild({
    name: 'legacy-sim',
    entry: 'bench/src/servers/legacy-sim-server.ts',
    root: REPO_ROOT,
    startTimeoutMs: 30_000,
  });
  const base = `http://127.0.0.1:${child.port}`;
  const url = `ws://127.0.0.1:${child.port}/customerapi/channels/connect`;
  try {
    console.log(JSON.stringify(await flood(base, url)));
    console.log(JSON.stringify(await subscribeStorm(base, url)));
  } finally {
    await child.close();
    killAllChildren();
  }
}

void main();
