import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import type { Client as StompJsClient } from '@stomp/stompjs' with { 'resolution-mode': 'import' };
import { localDateOf } from '@racedata/race-day';
import { closeAfterTest, closeAll, TOKENS } from '@racedata/test-support';
import { startSimPairProcess } from '@racedata/test-support/sim-process';

// @stomp/stompjs's "require" export is a UMD bundle; this file compiles to CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('@stomp/stompjs') as { Client: typeof StompJsClient };

/** When the first Data message reaches an event-stream client of this user (fails after 15 s). */
function firstData(wsBase: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsBase}/customerapi/event-stream`);
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`no Data for ${token} within 15 s`));
    }, 15_000);
    ws.on('error', reject);
    ws.on('message', (raw) => {
      const type = (JSON.parse(String(raw)) as { type: string }).type;
      if (type === 'Connection') ws.send(token);
      if (type !== 'Data') return;
      clearTimeout(timer);
      ws.terminate();
      resolve(Date.now());
    });
  });
}

/** When the first MESSAGE reaches a STOMP subscriber of this user (fails after 15 s). */
function firstStomp(wsBase: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () =>
        new WebSocket(`${wsBase}/api/v1/channels/connect`, { headers: { authorization: `Bearer ${token}` } }),
      heartbeatIncoming: 0,
      heartbeatOutgoing: 0,
      reconnectDelay: 0,
      debug: () => undefined,
    });
    const timer = setTimeout(() => {
      void client.deactivate();
      reject(new Error('no STOMP message within 15 s'));
    }, 15_000);
    client.onConnect = () => {
      client.subscribe('/api/v1/channels/user/topic/publish', () => {
        clearTimeout(timer);
        void client.deactivate();
        resolve(Date.now());
      });
    };
    client.activate();
  });
}

// The README's first command as a real process tree: npm -> sh -> npm -> node. A signal sent to
// the outer npm must reach the simulators, or they keep both ports after npm has exited.
const root = path.resolve(__dirname, '..', '..', '..');
const trees: ChildProcess[] = [];

afterEach(closeAll);

afterEach(() => {
  for (const tree of trees.splice(0)) {
    // The whole group, so a simulator left behind by a failed assertion cannot keep jest alive.
    if (tree.pid !== undefined) {
      try {
        process.kill(-tree.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    }
  }
});

function npmStart(): { child: ChildProcess; output: (pattern: RegExp) => Promise<RegExpExecArray> } {
  const child = spawn(
    'npm',
    // No --host: npm start listens on 127.0.0.1 by default (checked below).
    ['start', '--', '--json-port', '0', '--legacy-port', '0', '--log-level', 'warn'],
    { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOST: '' } },
  );
  trees.push(child);
  let text = '';
  const waiters: Array<() => void> = [];
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters) waiter();
  });
  const output = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match) resolve(match);
      };
      waiters.push(check);
      check();
      child.once('exit', (code) =>
        reject(new Error(`npm start exited (${code}) before ${pattern}:\n${text}`)),
      );
    });
  return { child, output };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function portsOf(output: (pattern: RegExp) => Promise<RegExpExecArray>): Promise<[number, number]> {
  await output(/see data:[\s\S]*event-stream/);
  const json = Number((await output(/JSON simulator listening on http:\/\/[^:]+:(\d+)/))[1]);
  const legacyPort = Number((await output(/legacy XML simulator listening on http:\/\/[^:]+:(\d+)/))[1]);
  return [json, legacyPort];
}

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'starts both simulators playing today, live messages for every user within 10 s, and %s to npm stops them',
    async (signal) => {
      const { child, output } = npmStart();
      const [jsonPort, legacyPort] = await portsOf(output);
      // This machine only, unless --host says otherwise.
      await output(/JSON simulator listening on http:\/\/127\.0\.0\.1:\d+ \(bound to 127\.0\.0\.1\)/);
      await output(/legacy XML simulator listening on http:\/\/127\.0\.0\.1:\d+ \(bound to 127\.0\.0\.1\)/);
      const started = Date.now();
      const line = (await output(/^race day: .*$/m))[0];
      expect(line).toMatch(
        /^race day: \d{4}-\d{2}-\d{2} \(seed \d+\), .* played at 12x from \d\d:\d\d, just before race \d+ at /,
      );
      expect(line).toContain('--no-race-day');

      // Every built-in user gets a live message over its live transport within 10 s of the start.
      const wsBase = (port: number) => `ws://127.0.0.1:${port}`;
      const [testuser, alluser, legacy] = await Promise.all([
        firstData(wsBase(jsonPort), TOKENS.testuser),
        firstData(wsBase(jsonPort), TOKENS.alluser),
        firstStomp(wsBase(legacyPort), TOKENS.testuser),
      ]);
      for (const at of [testuser, alluser, legacy]) expect(at - started).toBeLessThan(10_000);

      // The day so far is stored: the long poll is answered at once, with today's (Swedish) date.
      const events = await fetch(`http://127.0.0.1:${jsonPort}/customerapi/events?lastEventId=0`, {
        headers: { authorization: `Bearer ${TOKENS.testuser}` },
      });
      expect(events.status).toBe(200);
      const body = (await events.json()) as { data: { events: Array<{ date: string }> } };
      expect(body.data.events[0]?.date).toBe(localDateOf(Date.now()));

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(await refused(jsonPort)).toBe(true);
      expect(await refused(legacyPort)).toBe(true);
    },
    90_000,
  );
});

/** What `npm start` runs after its build: the arguments of the root package's `serve` script. */
function serveArgs(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { serve: string };
  };
  const words = pkg.scripts.serve.split(/\s+/);
  return words.slice(words.indexOf('all') + 1);
}

describe('npm start, at any hour', () => {
  it('shows a whole race within 3 minutes: parade countdown, start countdown, splits, last 500 m, result', async () => {
    const sims = await startSimPairProcess(serveArgs());
    const started = Date.now();
    const seen = new Map<string, Set<string>>();
    const note = (race: string, what: string) => seen.set(race, (seen.get(race) ?? new Set()).add(what));
    const whole = () => [...seen].find(([, s]) => s.size === 5)?.[0];
    const ws = new WebSocket(`${sims.json.wsBase}/customerapi/event-stream`);
    closeAfterTest({ close: () => ws.terminate() });
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as {
        type: string;
        data?: { channel: string; trackId: number; raceNr: number; payload: Record<string, number> };
      };
      if (m.type === 'Connection') ws.send(TOKENS.alluser);
      const d = m.data;
      if (!d) return;
      const race = `${d.trackId}:${d.raceNr}`;
      if (d.channel === 'TimeToDefTrot' && d.payload.secondsToParade === 0) note(race, 'parade countdown');
      if (d.channel.startsWith('TimeToStart') && d.payload.secondsToStart === 0)
        note(race, 'start countdown');
      if (d.channel.startsWith('SplitTimes')) note(race, 'splits');
      if (d.channel.startsWith('Last500Meters') && d.payload.metersToGo === 0) note(race, 'last 500 m');
    });
    // Results come by long poll, from after the history.
    const history = (await (
      await fetch(`${sims.json.base}/customerapi/events?lastEventId=0&limit=10000`, {
        headers: { authorization: `Bearer ${TOKENS.alluser}` },
      })
    ).json()) as { data: { events: Array<{ eventId: number }> } };
    let last = history.data.events.at(-1)?.eventId ?? 0;
    while (!whole()) {
      if (Date.now() - started > 180_000)
        throw new Error(
          `no whole race within 3 minutes: ${JSON.stringify([...seen].map(([r, s]) => [r, [...s]]))}`,
        );
      const res = await fetch(`${sims.json.base}/customerapi/events?lastEventId=${last}`, {
        headers: { authorization: `Bearer ${TOKENS.alluser}` },
        signal: AbortSignal.timeout(Math.max(1, 185_000 - (Date.now() - started))),
      });
      if (res.status !== 200) continue;
      const page = (await res.json()) as {
        data: { events: Array<{ eventId: number; channel: string; trackId: number; raceNr: number }> };
      };
      for (const e of page.data.events) {
        last = e.eventId;
        if (e.channel.startsWith('Result') && seen.get(`${e.trackId}:${e.raceNr}`)?.size === 4)
          note(`${e.trackId}:${e.raceNr}`, 'result');
      }
    }
    expect(Date.now() - started).toBeLessThan(180_000);
  }, 200_000);
});
