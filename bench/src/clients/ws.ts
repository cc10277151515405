import WebSocket from 'ws';

/**
 * Every harness client: no compression (the servers under test send plain frames) and no UTF-8
 * check of text frames. The harness receives every delivery of every side; the check would cost
 * it only on text frames, so a side sending text would pay a load-generator cost the other may not.
 */
const CLIENT_OPTIONS = { perMessageDeflate: false, skipUTF8Validation: true } as const;

/** Opens many clients a batch at a time, so the listen backlog never overflows. */
export async function connectMany(
  count: number,
  open: (i: number) => Promise<WebSocket>,
): Promise<WebSocket[]> {
  const all: WebSocket[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => open(i + k)));
    all.push(...batch);
  }
  return all;
}

export function closeAll(clients: readonly WebSocket[]): void {
  for (const ws of clients) ws.terminate();
}

function opened(ws: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

function nextText(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (data: WebSocket.RawData) => resolve(String(data))));
}

/** A plain WebSocket client of a bare baseline. */
export async function connectBare(port: number): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`, CLIENT_OPTIONS);
  await opened(ws);
  return ws;
}

/** A JSON event-stream client: Connection, then the token, then Authenticated. */
export async function connectEventStream(port: number, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/customerapi/event-stream`, CLIENT_OPTIONS);
  const first = nextText(ws);
  await opened(ws);
  await first;
  const auth = nextText(ws);
  ws.send(token);
  const reply = await auth;
  if (!reply.includes('"Authenticated"')) throw new Error(`event-stream authentication failed: ${reply}`);
  return ws;
}

export const STOMP_PATH = '/api/v1/channels/connect';
export const STOMP_DESTINATION = '/api/v1/channels/user/topic/publish';

/** A STOMP 1.2 subscriber: token on the upgrade, no heart-beats, SUBSCRIBE confirmed by RECEIPT. */
export async function connectStomp(port: number, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${STOMP_PATH}`, ['v12.stomp'], {
    ...CLIENT_OPTIONS,
    headers: { authorization: `Bearer ${token}` },
  });
  await opened(ws);
  const connected = nextText(ws);
  ws.send('CONNECT\naccept-version:1.2\nhost:127.0.0.1\nheart-beat:0,0\n\n\0');
  const reply = await connected;
  if (!reply.startsWith('CONNECTED')) throw new Error(`STOMP CONNECT refused: ${reply}`);
  const receipt = nextText(ws);
  ws.send(`SUBSCRIBE\nid:sub-0\ndestination:${STOMP_DESTINATION}\nack:auto\nreceipt:r-0\n\n\0`);
  const confirmed = await receipt;
  if (!confirmed.startsWith('RECEIPT')) throw new Error(`STOMP SUBSCRIBE refused: ${confirmed}`);
  return ws;
}
