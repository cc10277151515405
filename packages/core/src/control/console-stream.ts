import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TimerHandle } from '../clock';
import type { Logger } from '../logger';
import type { Journal, JournalRecord } from './journal';
import type { OffsetClock } from './offset-clock';

/** Entries sent to a new stream before live ones, so the console opens on recent history. */
export const STREAM_BACKLOG = 200;
/** How often the state (users, queues, replay, faults) is looked at; sent only when it changed. */
export const STREAM_STATE_MS = 1000;
/** A comment line this often keeps proxies and the browser from timing the stream out. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** A client this far behind is cut; its EventSource reconnects and resumes by Last-Event-ID. */
export const STREAM_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export interface ConsoleStreamOptions {
  journal: Journal;
  clock: OffsetClock;
  logger: Logger;
  /** The state event: what GET /_sim/state says plus what only the console shows. */
  state: () => unknown;
}

/**
 * GET /_sim/stream: Server-Sent Events for the console. `entry` carries each journal entry as it
 * is added (id: its seq), `state` the simulator's state whenever it changed. One journal
 * listener and one timer serve every client, and both exist only while a client is connected.
 */
export class ConsoleStream {
  private readonly clients = new Set<ServerResponse>();
  private unlisten: (() => void) | undefined;
  private timer: TimerHandle | undefined;
  private lastState = '';
  private quietTicks = 0;

  constructor(private readonly options: ConsoleStreamOptions) {}

  get clientCount(): number {
    return this.clients.size;
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const { journal } = this.options;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies such as nginx would otherwise hold events back in their buffers.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\n\n`);
    this.clients.add(res);
    res.once('close', () => this.drop(res));
    this.ensureRunning();
    // A reconnecting EventSource says where it left off; a new one gets the latest entries.
    const resumeFrom = Number(req.headers['last-event-id'] ?? url.searchParams.get('since') ?? NaN);
    const since =
      Number.isInteger(resumeFrom) && resumeFrom >= 0
        ? Math.max(resumeFrom, journal.lastSeq - STREAM_BACKLOG)
        : Math.max(0, journal.lastSeq - STREAM_BACKLOG);
    for (const entry of journal.list({ since }, STREAM_BACKLOG).entries) {
      res.write(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
    }
    this.lastState = '';
    this.sendState();
  }

  /** Ends every stream (the simulator is closing). */
  close(): void {
    for (const res of [...this.clients]) res.end();
    this.stopIfIdle();
  }

  private ensureRunning(): void {
    if (this.unlisten) return;
    const { journal, clock } = this.options;
    this.unlisten = journal.onEntry((record) => this.onEntry(record));
    this.timer = clock.setInterval(() => this.tick(), STREAM_STATE_MS);
  }

  private onEntry(record: JournalRecord): void {
    // The journal hands listeners its stored record, which holds the time as a number.
    const { at, ...rest } = record as JournalRecord & { at?: number };
    const entry = { ...rest, time: new Date(at ?? this.options.clock.now()).toISOString() };
    const frame = `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
    for (const res of this.clients) this.write(res, frame);
  }

  private tick(): void {
    if (!this.sendState() && ++this.quietTicks * STREAM_STATE_MS >= STREAM_HEARTBEAT_MS) {
      this.quietTicks = 0;
      for (const res of this.clients) this.write(res, ': heartbeat\n\n');
    }
  }

  /** Sends the state when it differs from the last one sent; true if it did. */
  private sendState(): boolean {
    const text = JSON.stringify(this.options.state());
    if (text === this.lastState) return false;
    this.lastState = text;
    this.quietTicks = 0;
    const frame = `event: state\ndata: ${text}\n\n`;
    for (const res of this.clients) this.write(res, frame);
    return true;
  }

  private write(res: ServerResponse, frame: string): void {
    if (res.writableLength > STREAM_MAX_BUFFERED_BYTES) {
      this.options.logger.warn({ buffered: res.writableLength }, 'console stream too slow; cut');
      res.destroy();
      return;
    }
    res.write(frame);
  }

  private drop(res: ServerResponse): void {
    this.clients.delete(res);
    this.stopIfIdle();
  }

  private stopIfIdle(): void {
    if (this.clients.size > 0) return;
    this.unlisten?.();
    this.unlisten = undefined;
    this.timer?.cancel();
    this.timer = undefined;
  }
}
