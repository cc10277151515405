/**
 * Sandboxes are isolated from outside: the simulator runs as its own process, and only real
 * clients over real sockets touch it. A token of one sandbox, or of the default simulator, must
 * open nothing in another sandbox, on every customer transport and in both token modes, and a
 * refused client must not take the sandbox's queued message from its own user.
 */
import WebSocket from 'ws';
import { closeAll, TOKENS } from '@racedata/test-support';
import { startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

afterEach(closeAll);

interface SandboxInfo {
  id: string;
  basePath: string;
  users: Array<{ key: string; secret: string; token: string }>;
}

const MODES = [
  ['fixed', ['--token-mode', 'fixed']],
  // A configured secret is exactly what sandboxes used to inherit.
  ['jwt', ['--token-mode', 'jwt', '--jwt-secret', 'the-parent-simulators-secret']],
] as const;

async function createSandbox(sim: SimProcess): Promise<SandboxInfo> {
  const res = await fetch(`${sim.base}/_sim/sandboxes`, { method: 'POST' });
  expect(res.status).toBe(201);
  return (await res.json()) as SandboxInfo;
}

/** POST {key, secret} to the long authenticate path; the bearer token it answers with. */
async function authenticate(base: string, key: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, secret }),
  });
  expect(res.status).toBe(200);
  const token = /^Bearer (\S+)$/.exec(res.headers.get('authorization') ?? '')?.[1];
  if (token === undefined) throw new Error('authenticate answered no bearer token');
  return token;
}

/** The legacy short path, HTTP Basic credentials. */
async function basicAuthenticate(base: string, key: string, secret: string): Promise<string> {
  const res = await fetch(`${base}/authenticate`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
  });
  expect(res.status).toBe(200);
  return /^Bearer (\S+)$/.exec(res.headers.get('authorization') ?? '')?.[1] ?? '';
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The event stream's answer to `token` sent as the first message: Authenticated, or the close code. */
function streamAnswer(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const seen: string[] = [];
    ws.on('message', (data: Buffer) => {
      const type = (JSON.parse(data.toString()) as { type: string }).type;
      seen.push(type);
      if (type === 'Connection') ws.send(token);
      if (type === 'Authenticated') {
        ws.close();
        resolve('Authenticated');
      }
    });
    ws.once('close', (code) => resolve(`${seen.join(',')} closed ${code}`));
    ws.once('error', reject);
  });
}

/** A STOMP upgrade's outcome: 'open', or the HTTP status it was refused with. */
function stompUpgrade(url: string, token: string): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v12.stomp'], { headers: bearer(token) });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
}

/** Resolves with the first STOMP frame whose command is `command`. */
function nextFrame(ws: WebSocket, command: string): Promise<string> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const text = data.toString();
      if (!text.startsWith(command)) return;
      ws.off('message', onMessage);
      resolve(text);
    };
    ws.on('message', onMessage);
  });
}

describe.each(MODES)('sandbox isolation with %s tokens', (_mode, modeArgs) => {
  test('JSON: a token of another sandbox or of the parent opens nothing in a sandbox', async () => {
    const sim = await startSimProcess('json', modeArgs);
    const a = await createSandbox(sim);
    const b = await createSandbox(sim);
    const A = sim.base + a.basePath;
    const B = sim.base + b.basePath;
    const foreign = {
      'the parent’s fixed token': TOKENS.testuser,
      'a token the parent’s authenticate issued': await authenticate(sim.base, 'testuser', 'testpassword'),
      'sandbox A’s fixed token': a.users[0]?.token ?? '',
      'a token sandbox A’s authenticate issued': await authenticate(A, 'testuser', 'testpassword'),
    };
    const posted = await fetch(`${B}/api/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'RaceDayTrot', date: '2026-11-22', trackId: 5, payload: { box: 'B' } }),
    });
    expect(posted.status).toBe(201);

    const refused: Record<string, unknown> = {};
    for (const [name, token] of Object.entries(foreign)) {
      refused[name] = {
        events: (await fetch(`${B}/customerapi/events?lastEventId=0`, { headers: bearer(token) })).status,
        filtered: (
          await fetch(
            `${B}/customerapi/filtered-events?channel=RaceDayTrot&startDate=2026-11-01&endDate=2026-11-30`,
            { headers: bearer(token) },
          )
        ).status,
        stream: await streamAnswer(`${sim.wsBase}${b.basePath}/customerapi/event-stream`, token),
      };
    }
    const allRefused = { events: 401, filtered: 401, stream: 'Connection,AuthenticationError closed 1008' };
    expect(refused).toEqual(Object.fromEntries(Object.keys(foreign).map((name) => [name, allRefused])));

    // B's own clients, with what B's authenticate issues, get B's message on every transport.
    const own = await authenticate(B, 'testuser', 'testpassword');
    const events = await fetch(`${B}/customerapi/events?lastEventId=0`, { headers: bearer(own) });
    expect(events.status).toBe(200);
    expect(JSON.stringify(await events.json())).toContain('"box":"B"');
    const filtered = await fetch(
      `${B}/customerapi/filtered-events?channel=RaceDayTrot&startDate=2026-11-01&endDate=2026-11-30`,
      { headers: bearer(own) },
    );
    expect(filtered.status).toBe(200);
    expect(await streamAnswer(`${sim.wsBase}${b.basePath}/customerapi/event-stream`, own)).toBe(
      'Authenticated',
    );
    // ...and what B issued opens neither A nor the parent.
    expect((await fetch(`${A}/customerapi/events?lastEventId=0`, { headers: bearer(own) })).status).toBe(401);
    expect(
      (await fetch(`${sim.base}/customerapi/events?lastEventId=0`, { headers: bearer(own) })).status,
    ).toBe(401);
  });

  test('legacy: a foreign token neither listens, nor connects STOMP, nor takes the queued message', async () => {
    const sim = await startSimProcess('legacy', [...modeArgs, '--long-poll-timeout', '200']);
    const a = await createSandbox(sim);
    const b = await createSandbox(sim);
    const A = sim.base + a.basePath;
    const B = sim.base + b.basePath;
    const foreign = {
      'the parent’s fixed token': TOKENS.testuser,
      'a token the parent’s authenticate issued': await basicAuthenticate(
        sim.base,
        'testuser',
        'testpassword',
      ),
      'sandbox A’s fixed token': a.users[0]?.token ?? '',
      'a token sandbox A’s authenticate issued': await authenticate(A, 'testuser', 'testpassword'),
      'a token sandbox A’s short authenticate issued': await basicAuthenticate(A, 'testuser', 'testpassword'),
    };
    const injected = await fetch(`${B}/customerapi/channel/id/Durable?payloadKey=k`, {
      method: 'POST',
      body: '<box>B</box>',
    });
    expect(injected.status).toBe(200);

    const refused: Record<string, unknown> = {};
    for (const [name, token] of Object.entries(foreign)) {
      const listen = await fetch(`${B}/customerapi/channels/listen`, { headers: bearer(token) });
      const stomp = await stompUpgrade(`${sim.wsBase}${b.basePath}/api/v1/channels/connect`, token);
      if (typeof stomp !== 'number') stomp.terminate();
      refused[name] = { listen: listen.status, stomp: typeof stomp === 'number' ? stomp : 'open' };
    }
    expect(refused).toEqual(
      Object.fromEntries(Object.keys(foreign).map((name) => [name, { listen: 401, stomp: 401 }])),
    );

    // B's queued message is still there for B's own client.
    const own = await basicAuthenticate(B, 'testuser', 'testpassword');
    const listen = await fetch(`${B}/customerapi/channels/listen`, { headers: bearer(own) });
    expect(listen.status).toBe(200);
    expect(await listen.text()).toContain('<box>B</box>');
    const stomp = await stompUpgrade(`${sim.wsBase}${b.basePath}/api/v1/channels/connect`, own);
    if (typeof stomp === 'number') throw new Error(`B's own STOMP upgrade was refused with ${stomp}`);
    stomp.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
    await nextFrame(stomp, 'CONNECTED');
    stomp.send('SUBSCRIBE\nid:1\ndestination:/user/topic/publish\nreceipt:r\n\n\0');
    await nextFrame(stomp, 'RECEIPT');
    const delivered = nextFrame(stomp, 'MESSAGE');
    await fetch(`${B}/customerapi/channel/id/NonDurable?payloadKey=t`, {
      method: 'POST',
      body: '<live>B</live>',
    });
    expect(await delivered).toContain('<live>B</live>');
    stomp.close();
    // What B issued opens neither A nor the parent.
    expect((await fetch(`${A}/customerapi/channels/listen`, { headers: bearer(own) })).status).toBe(401);
    expect((await fetch(`${sim.base}/customerapi/channels/listen`, { headers: bearer(own) })).status).toBe(
      401,
    );
  });
});
