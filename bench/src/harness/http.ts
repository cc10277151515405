import http from 'node:http';
import net from 'node:net';

export type HttpResult = { status: number; body: Buffer; headers: http.IncomingHttpHeaders };

export interface HttpRequest {
  readonly port: number;
  readonly method?: string;
  readonly path: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  /** The default agent unless given (false: a connection of its own). */
  readonly agent?: http.Agent | false;
  /** Hangs up when nothing came for this long (a failure). */
  readonly timeoutMs?: number;
}

/** A request, its answer read whole. */
export function httpRequest(req: HttpRequest): Promise<HttpResult> {
  const { port, method = 'GET', path, headers, agent } = req;
  return new Promise((resolve, reject) => {
    const r = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.timeoutMs) r.setTimeout(req.timeoutMs, () => r.destroy(new Error(`timeout ${path}`)));
    r.end(req.body);
  });
}

/** A request with a JSON body (given as a value) or none, as the control plane takes them (415 otherwise). */
export function jsonRequest(port: number, method: string, path: string, body?: unknown, agent?: http.Agent) {
  const headers = { 'content-type': 'application/json' };
  const text = body === undefined ? undefined : JSON.stringify(body);
  return httpRequest({ port, method, path, headers, body: text, ...(agent && { agent }), timeoutMs: 30_000 });
}

/** One keep-alive agent for every injection, so posting costs the same on each side. */
const postAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** A message post (JSON, legacy XML, or the bytes a bare baseline forwards); 30 s is a failure. */
export const post = (port: number, path: string, body: string | Buffer, type = 'application/json') =>
  httpRequest({
    ...{ port, method: 'POST', path, headers: { 'content-type': type }, body },
    ...{ agent: postAgent, timeoutMs: 30_000 },
  });

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

/** Resolves once `done()` holds (checked every `everyMs`) or `ms` have passed; says which. */
export async function until(done: () => boolean, ms: number, everyMs = 100): Promise<boolean> {
  for (const deadline = performance.now() + ms; !done(); await sleep(everyMs))
    if (performance.now() > deadline) return false;
  return true;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
