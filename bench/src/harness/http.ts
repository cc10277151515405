import http from 'node:http';
import net from 'node:net';

export interface HttpResult {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: http.IncomingHttpHeaders;
}

export interface HttpRequest {
  readonly port: number;
  readonly method?: string;
  readonly path: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  /** The default agent unless given (requestOnce: a connection of its own). */
  readonly agent?: http.Agent | false;
  readonly timeoutMs?: number;
  /** requestOnce: hang up this many ms after sending unless the request is over by then. */
  readonly hangUpMs?: number;
}

/** The request, its answer read whole; `onBody` null leaves it unread. */
function send(
  req: HttpRequest,
  onBody: ((status: number, body: Buffer, res: http.IncomingMessage) => void) | null,
) {
  const { port, method = 'GET', path, headers, agent } = req;
  const r = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
    if (!onBody) return res.resume();
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => onBody(res.statusCode ?? 0, Buffer.concat(chunks), res));
    res.on('error', (err) => r.emit('error', err));
  });
  r.end(req.body);
  return r;
}

export function httpRequest(req: HttpRequest): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const r = send(req, (status, body, res) => resolve({ status, body, headers: res.headers }));
    r.on('error', reject);
    if (req.timeoutMs) r.setTimeout(req.timeoutMs, () => r.destroy(new Error(`timeout ${req.path}`)));
  });
}

/** A request with a JSON body (given as a value) or none, as the control plane takes them (415 otherwise). */
export function jsonRequest(port: number, method: string, path: string, body?: unknown, agent?: http.Agent) {
  const headers = { 'content-type': 'application/json' };
  const text = body === undefined ? undefined : JSON.stringify(body);
  return httpRequest({ port, method, path, headers, body: text, ...(agent && { agent }), timeoutMs: 30_000 });
}

/**
 * A request on a connection of its own (unless `agent` says), hung up `hangUpMs` after it was sent
 * unless it is over by then; `onBody` gets an answer read whole. Resolves once it closed.
 */
export function requestOnce(
  req: HttpRequest,
  onBody?: (status: number, body: Buffer) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const r = send({ agent: false, ...req }, onBody ?? null);
    const timer = req.hangUpMs === undefined ? undefined : setTimeout(() => r.destroy(), req.hangUpMs);
    r.on('error', () => undefined);
    r.on('close', () => resolve(clearTimeout(timer)));
  });
}

/** One keep-alive agent for every injection, so posting costs the same on each side. */
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A message post (JSON, legacy XML, or the bytes a bare baseline forwards); 30 s is a failure. */
export const post = (port: number, path: string, body: string | Buffer, type = 'application/json') =>
  httpRequest({
    port,
    method: 'POST',
    path,
    headers: { 'content-type': type },
    body,
    agent: postAgent,
    timeoutMs: 30_000,
  });

export const postJson = (port: number, body: string) => post(port, '/api/message', body);

/** A legacy message: the channel it is posted to, its payloadKey and its XML document. */
export interface LegacyMessage {
  readonly channel: string;
  readonly payloadKey: string;
  readonly xml: string;
}

/** POST /customerapi/channel/<channel>/Durable|NonDurable?payloadKey=... with the XML. */
export const postLegacy = (port: number, kind: 'Durable' | 'NonDurable', m: LegacyMessage) =>
  post(
    port,
    `/customerapi/channel/${m.channel}/${kind}?payloadKey=${m.payloadKey}`,
    m.xml,
    'application/xml',
  );

/** A port the OS just handed out (for tools that cannot listen on port 0 and report it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Resolves once GET /health answers 200 (polled every 3 ms); throws when `alive()` turns false. */
export async function waitForHealth(port: number, alive: () => boolean, timeoutMs = 60_000): Promise<void> {
  for (const deadline = performance.now() + timeoutMs; performance.now() < deadline; await sleep(3)) {
    if (!alive()) throw new Error('exited before answering');
    const res = await httpRequest({ port, path: '/health', timeoutMs: 1000 }).catch(() => undefined);
    if (res?.status === 200) return;
  }
  throw new Error(`no /health answer within ${timeoutMs} ms`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
