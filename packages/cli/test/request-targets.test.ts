import net from 'node:net';
import { healthCheck, startSimProcess, type SimProcess } from '@racedata/test-support/sim-process';

// Request targets a browser never sends but a proxy, a scanner or a hand-written client does.
// `GET //?x` once ended the whole process: the control plane read it as a URL with an empty host.
// Each target goes over its own raw socket (fetch and node:http normalise them away) and must get
// an HTTP answer below 500, with the process still serving afterwards.
const TARGETS = [
  '//?x',
  '//',
  '///',
  '//_sim/state',
  '//_sim/reset',
  '//customerapi/events?lastEventId=0',
  '//customerapi/channels/listen',
  '*',
  'http://elsewhere.example/_sim/state',
  'http://elsewhere.example/customerapi/events?lastEventId=0',
  '/_sim/state?%',
  '/_sim/journal?since=%zz',
  '/%zz',
  '/customerapi/events?lastEventId=%ff',
  '/_sim/../_sim/state',
  '/_sim/ui/../../health',
];

const METHODS = ['GET', 'POST', 'OPTIONS', 'DELETE'];

/** The status line's code of one request written byte for byte; 0 when the socket closed without one. */
function statusOf(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(head));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

describe.each(['json', 'legacy'] as const)('%s simulator: unusual request targets', (kind) => {
  let sim: SimProcess;

  beforeAll(async () => {
    sim = await startSimProcess(kind, []);
  });

  afterAll(async () => {
    await sim?.close();
  });

  it('answers every target in every method below 500 and keeps serving', async () => {
    const answers: string[] = [];
    for (const target of TARGETS) {
      for (const method of METHODS) {
        const body = method === 'POST' ? '{}' : '';
        const head =
          `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
        const status = await statusOf(sim.port, head);
        if (status === 0 || status >= 500) answers.push(`${method} ${target} -> ${status}`);
      }
    }
    expect({ answers, alive: sim.alive() }).toEqual({ answers: [], alive: true });
    expect((await healthCheck(sim.port)).status).toBe(200);
  }, 30_000);

  it('refuses an upgrade to an unusual target without ending the process', async () => {
    for (const target of ['//?x', '//customerapi/event-stream', '*', 'http://elsewhere.example/x']) {
      const head =
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
      const status = await statusOf(sim.port, head);
      expect({ target, refused: status >= 400 && status < 500 }).toEqual({ target, refused: true });
    }
    expect(sim.alive()).toBe(true);
    expect((await healthCheck(sim.port)).status).toBe(200);
  });
});
