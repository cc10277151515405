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
  readonly agent?: http.Agent;
  readonly timeoutMs?: number;
}

/** The request `req` describes, on its agent (`agent` when it names none). */
const send = (
  req: HttpRequest,
  agent: http.Agent | false | undefined,
  onResponse?: (res: http.IncomingMessage) => void,
) =>
  http.request(
    {
      host: '127.0.0.1',
      port: req.port,
      method: req.method ?? 'GET',
      path: req.path,
      headers: req.headers,
      agent: req.agent ?? agent,
    },
    onResponse,
  );

export function httpRequest(req: HttpRequest): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const r = send(req, undefined, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.timeoutMs) r.setTimeout(req.timeoutMs, () => r.destroy(new Error(`timeout ${req.path}`)));
    r.end(req.body);
  });
}

/** A request with a JSON body (given as a value) or none, as the control plane takes them. */
export function jsonRequest(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  agent?: http.Agent,
): Promise<HttpResult> {
  return httpRequest({
    port,
    method,
    path,
    // The control plane refuses bodies that do not say they are JSON (415).
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    ...(agent && { agent }),
    timeoutMs: 30_000,
  });
}

/**
 * A request that hangs up `hangUpMs` after it was sent unless it is over by then (by default on
 * a connection of its own); `onBody` gets an answer read whole. Resolves once the request closed.
 */
export function requestOnce(
  req: HttpRequest & { readonly hangUpMs?: number },
  onBody?: (status: number, body: Buffer) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const r = send(
      req,
      false,
      onBody &&
        ((res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => onBody(res.statusCode ?? 0, Buffer.concat(chunks)));
          res.on('error', () => undefined);
        }),
    );
    const timer = req.hangUpMs === undefined ? undefined : setTimeout(() => r.destroy(), req.hangUpMs);
    r.on('error', () => undefined);
    r.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    r.end(req.body);
  });
}

/** One keep-alive agent for every injection, so posting costs the same on each side. */
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A message post (JSON, legacy XML, or the bytes a bare baseline forwards) on the shared agent. */
export function post(port: number, path: string, body: string | Buffer, type = 'application/json') {
  // Long enough for a simulator under the heaviest load; a post that takes longer is a failure.
  const headers = { 'content-type': type };
  return httpRequest({ port, method: 'POST', path, headers, body, agent: postAgent, timeoutMs: 30_000 });
}

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
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once GET /health answers 200 (polled every 3 ms); throws when `alive()` turns false. */
export async function waitForHealth(port: number, alive: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!alive()) throw new Error('exited before answering');
    const res = await httpRequest({ port, path: '/health', timeoutMs: 1000 }).catch(() => undefined);
    if (res?.status === 200) return;
    await sleep(3);
  }
  throw new Error(`no /health answer within ${timeoutMs} ms`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
