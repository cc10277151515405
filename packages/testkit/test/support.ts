/**
 * What the test kit's tests share: simulators started through the kit and closed after each
 * test, raw HTTP for checking what the client does against what the server says, and an
 * authenticated event-stream session for the session-closing calls.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { USERS, closeAfterTest } from '@racedata/test-support';
import { startSimulators, type StartOptions } from 'racedata-sim';

export { TOKENS, USERS, closeAll, eventually } from '@racedata/test-support';

/** testuser's fixed token, the same on both simulators (test-support's USERS, not a copy). */
export const TOKEN = USERS.json.testuser.token;

/** Simulators started by the kit, closed by closeAll(). */
export async function started<const O extends StartOptions = Record<never, never>>(options?: O) {
  return closeAfterTest(await startSimulators(options));
}

/** A GET with testuser's (or another) token: status and body text. */
export async function get(url: string, token: string | undefined = TOKEN) {
  const res = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** An event-stream session (JSON simulator) past its Authenticated message; `closed` is its close code. */
export async function openEventStream(jsonUrl: string, token = TOKEN) {
  const ws = new WebSocket(`${jsonUrl.replace(/^http/, 'ws')}/customerapi/event-stream`);
  ws.on('error', () => undefined);
  closeAfterTest({ close: () => ws.terminate() });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const type = (JSON.parse(data.toString()) as { type: string }).type;
      if (type === 'Connection') ws.send(token);
      else if (type === 'Authenticated') resolve();
      else if (type !== 'Ping') reject(new Error(`unexpected ${data.toString()}`));
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  return { ws, closed };
}

/** A plain HTTP server on a free loopback port, for answers no simulator gives (HTML, silence). */
export async function fakeServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterTest({
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Answers with JSON. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
