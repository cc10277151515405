import http from 'node:http';

export interface PollClientsOptions {
  readonly port: number;
  readonly count: number;
  /** Request headers of client i (each client may be a different user). */
  readonly headers?: (i: number) => http.OutgoingHttpHeaders;
  readonly initialPath: string;
  /** The next poll's path after a response (e.g. lastEventId from the page). */
  readonly nextPath: (body: Buffer, current: string) => string;
  readonly onResponse: (status: number, body: Buffer, at: number) => void;
}

/** `count` clients each holding one long poll, re-polling as soon as an answer arrives. */
export class PollClients {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  private readonly requests = new Set<http.ClientRequest>();
  private stopped = false;
  /** Clients whose current request is fully written to the socket. */
  written = 0;
  errors = 0;

  constructor(private readonly options: PollClientsOptions) {}

  start(): void {
    for (let i = 0; i < this.options.count; i++) this.poll(i, this.options.initialPath);
  }

  stop(): void {
    this.stopped = true;
    for (const req of this.requests) req.destroy();
    this.requests.clear();
    this.agent.destroy();
  }

  private poll(client: number, path: string): void {
    if (this.stopped) return;
    const req = http.request(
      {
        host: '127.0.0.1',
        port: this.options.port,
        path,
        headers: this.options.headers?.(client),
        agent: this.agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const at = performance.now();
          this.requests.delete(req);
          this.written--;
          const body = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          if (this.stopped) return;
          this.options.onResponse(status, body, at);
          this.poll(client, status === 200 ? this.options.nextPath(body, path) : path);
        });
      },
    );
    this.requests.add(req);
    req.on('finish', () => this.written++);
    req.on('error', () => {
      if (this.stopped) return;
      this.errors++;
      this.requests.delete(req);
      setTimeout(() => this.poll(client, path), 50);
    });
    req.end();
  }
}
