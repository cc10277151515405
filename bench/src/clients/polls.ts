import http from 'node:http';
import { monoMs } from '../harness/proc';

export interface PollClientsOptions {
  readonly port: number;
  readonly count: number;
  /** Request headers of client i (each client may be a different user). */
  readonly headers?: (i: number) => http.OutgoingHttpHeaders;
  readonly initialPath: string;
  /** The next poll's path after a response (e.g. lastEventId from the page). */
  readonly nextPath: (body: Buffer, current: string, client: number) => string;
  readonly onResponse: (status: number, body: Buffer, at: number, client: number) => void;
  /**
   * Ms after which client i hangs up its current poll if no answer has begun by then
   * (undefined: it waits for the answer). It then polls again on a new connection.
   */
  readonly hangUpAfter?: (client: number) => number | undefined;
  /**
   * How a client hangs up: 'close' ends its side of the connection (FIN) and still reads
   * whatever the server had already sent; 'reset' destroys the socket at once, dropping even
   * an answer already on its way (which no server can tell from one that was read).
   */
  readonly hangUpStyle?: 'close' | 'reset';
}

/**
 * A hang-up this many ms or less after the request destroys the socket whatever the style: a
 * client that gives up right after sending, whose FIN reaches the server before the answer
 * leaves it (the hang-up a server can least easily tell from a read answer).
 */
export const EARLY_HANG_UP_MS = 20;

/** `count` clients each holding one long poll, re-polling as soon as an answer arrives. */
export class PollClients {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  private readonly requests = new Set<http.ClientRequest>();
  private stopped = false;
  /** Clients whose current request is fully written to the socket. */
  written = 0;
  errors = 0;
  lastError: string | undefined;
  /** Polls a client gave up on before any answer began (hangUpAfter). */
  hangUps = 0;

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
    let finished = false;
    let hungUp = false;
    let hangUpTimer: NodeJS.Timeout | undefined;
    const settle = () => {
      this.requests.delete(req);
      if (finished) this.written--;
      finished = false;
      clearTimeout(hangUpTimer);
    };
    // A poll that will hang up gets a connection of its own, never reused after it.
    const hangUpMs = this.options.hangUpAfter?.(client);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: this.options.port,
        path,
        headers: this.options.headers?.(client),
        agent: hangUpMs === undefined ? this.agent : false,
      },
      (res) => {
        // An answer has begun: it is read in full, never abandoned half way.
        clearTimeout(hangUpTimer);
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const at = monoMs();
          settle();
          const body = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          if (this.stopped) return;
          this.options.onResponse(status, body, at, client);
          this.poll(client, status === 200 ? this.options.nextPath(body, path, client) : path);
        });
      },
    );
    this.requests.add(req);
    req.on('finish', () => {
      finished = true;
      this.written++;
    });
    req.on('error', (err) => {
      if (this.stopped) {
        clearTimeout(hangUpTimer);
        return;
      }
      settle();
      if (hungUp) {
        setImmediate(() => this.poll(client, path));
        return;
      }
      this.errors++;
      this.lastError = err.message;
      setTimeout(() => this.poll(client, path), 50);
    });
    if (hangUpMs !== undefined) {
      hangUpTimer = setTimeout(() => {
        if (this.stopped) return;
        hungUp = true;
        this.hangUps++;
        // 'close': the poll ends when the server answers or closes; 'error' or 'end' polls again.
        const early = hangUpMs <= EARLY_HANG_UP_MS;
        if (early || this.options.hangUpStyle === 'reset' || !req.socket) req.destroy();
        else req.socket.end();
      }, hangUpMs);
    }
    req.end();
  }
}
