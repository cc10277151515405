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

/** The header of a JSON body: the control plane refuses bodies that do not say so (415). */
const JSON_BODY: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };

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
    headers: JSON_BODY,
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

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
