import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, type TimerHandle } from '@racedata/core';
import { controlPlaneError } from './errors';
import type { Journal } from './journal';
import type { JournalRecord } from './journal-types';
import type { OffsetClock } from './offset-clock';

/** Entries sent to a new stream before live ones, so the console opens on recent history. */
export const STREAM_BACKLOG = 200;
/** How often the state (users, queues, replay, faults) is looked at; sent only when it changed. */
export const STREAM_STATE_MS = 1000;
/** A comment line this often keeps proxies and the browser from timing the stream out. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Entry frames recorded together are written in pieces of about this many characters. */
const FLUSH_BYTES = 64 * 1024;

export interface ConsoleStreamOptions {
  journal: Journal;
  clock: OffsetClock;
  logger: Logger;
  /**
   * The state event without its `time`: what GET /_sim/state says plus what only the console
   * shows. The time is added when the state is sent, not compared: it changes every tick, and
   * a state re-sent each second only for it cost every console tab the whole state a second.
   */
  state: () => object;
  /**
   * Subscribes to changes the stream should not wait STREAM_STATE_MS for (a certification grading
   * its checks); returns the unsubscribe. The state is still sent only when it differs.
   */
  stateChanges?: ((listener: () => void) => () => void) | undefined;
  /** CONSOLE_STREAMS_MAX: one more client is answered 429. */
  maxClients: number;
  /**
   * CONSOLE_STREAM_MAX_BUFFERED_BYTES: a client whose unsent bytes would pass this is cut; its
   * EventSource reconnects and resumes by Last-Event-ID.
   */
  maxBufferedBytes: number;
}

/**
 * GET /_sim/stream: Server-Sent Events for the console. `entry` carries each journal entry as it
 * is added (id: its seq), `state` the simulator's state whenever it changed. One journal
 * listener and one timer serve every client, and both exist only while a client is connected.
 */
export class ConsoleStream {
  private readonly clients = new Set<ServerResponse>();
  private unlisten: (() => void) | undefined;
  private unlistenState: (() => void) | undefined;
  /** A state send is queued for the end of the current task. */
  private stateQueued = false;
  private timer: TimerHandle | undefined;
  /** The state as last sent, without its time. */
  private lastState = '';
  private quietTicks = 0;
  /** Entry frames not yet written, sent together once the code recording them is done. */
  private pending: string[] = [];

  constructor(private readonly options: ConsoleStreamOptions) {}

  get clientCount(): number {
    return this.clients.size;
  }

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const { journal, maxClients } = this.options;
    if (this.clients.size >= maxClients) {
      throw controlPlaneError(
        'CONSOLE_STREAMS_LIMIT',
        `${maxClients} console streams are open already (CONSOLE_STREAMS_MAX); close a console tab`,
      );
    }
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
      const frame = `id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`;
      if (!this.write(res, frame, Buffer.byteLength(frame))) return;
    }
    // A changed state goes to everyone; an unchanged one only to the newcomer.
    if (!this.sendState()) {
      const frame = this.stateFrame(this.lastState);
      this.write(res, frame, Buffer.byteLength(frame));
    }
  }

  /** Ends every stream (the simulator is closing), after the state as it ended. */
  close(): void {
    if (this.clients.size > 0) this.sendState();
    for (const res of [...this.clients]) res.end();
    this.stopIfIdle();
  }

  private ensureRunning(): void {
    if (this.unlisten) return;
    const { journal, clock } = this.options;
    this.unlisten = journal.onEntry((record) => this.onEntry(record));
    this.timer = clock.setInterval(() => this.tick(), STREAM_STATE_MS);
    this.unlistenState = this.options.stateChanges?.(() => this.stateChanged());
  }

  /**
   * Changes made together (a scenario's checks graded one after another) leave as one state:
   * the send waits for the end of the current task.
   */
  private stateChanged(): void {
    if (this.stateQueued) return;
    this.stateQueued = true;
    queueMicrotask(() => {
      this.stateQueued = false;
      if (this.clients.size > 0) this.sendState();
    });
  }

  private onEntry(record: JournalRecord): void {
    // The journal hands listeners its stored record, which holds the time as a number.
    const { at, ...rest } = record as JournalRecord & { at?: number };
    const entry = { ...rest, time: new Date(at ?? this.options.clock.now()).toISOString() };
    this.pending.push(`id: ${entry.seq}\nevent: entry\ndata: ${JSON.stringify(entry)}\n\n`);
    if (this.pending.length === 1) queueMicrotask(() => this.flush());
  }

  /**
   * The entries recorded in one go (a page read records one per event) leave as one write per
   * client: written one by one, 10,000 entries to a few consoles were ten thousand writes each,
   * and stalled every other request for about a second.
   */
  private flush(): void {
    const frames = this.pending;
    this.pending = [];
    // In pieces of about FLUSH_BYTES, so a client is cut for what it left unread, as it would be
    // frame by frame, and not for the size of one burst.
    let from = 0;
    let length = 0;
    for (let i = 0; i < frames.length; i++) {
      length += (frames[i] as string).length;
      if (length < FLUSH_BYTES && i < frames.length - 1) continue;
      this.broadcast(frames.slice(from, i + 1).join(''));
      from = i + 1;
      length = 0;
    }
  }

  private tick(): void {
    if (!this.sendState() && ++this.quietTicks * STREAM_STATE_MS >= STREAM_HEARTBEAT_MS) {
      this.quietTicks = 0;
      this.broadcast(': heartbeat\n\n');
    }
  }

  /** Sends the state when it differs from the last one sent; true if it did. */
  private sendState(): boolean {
    const text = JSON.stringify(this.options.state());
    if (text === this.lastState) return false;
    this.lastState = text;
    this.quietTicks = 0;
    this.broadcast(this.stateFrame(text));
    return true;
  }

  /** The state event for the state's JSON, with the time now on the simulator's clock. */
  private stateFrame(text: string): string {
    const time = JSON.stringify(new Date(this.options.clock.now()).toISOString());
    const rest = text.length > 2 ? `,${text.slice(1)}` : '}';
    return `event: state\ndata: {"time":${time}${rest}\n\n`;
  }

  private broadcast(frame: string): void {
    const bytes = Buffer.byteLength(frame);
    for (const res of this.clients) this.write(res, frame, bytes);
  }

  /**
   * Writes the frame unless that would leave more than maxBufferedBytes unsent; then cuts the
   * client, once: it leaves the set at once, so no later frame is written to it or logged
   * again (waiting for its `close` event let every frame in between log another cut).
   * False when the client was cut.
   */
  private write(res: ServerResponse, frame: string, bytes: number): boolean {
    if (res.writableLength + bytes <= this.options.maxBufferedBytes) {
      res.write(frame);
      return true;
    }
    if (this.clients.delete(res)) {
      this.options.logger.warn(
        { buffered: res.writableLength, limit: this.options.maxBufferedBytes },
        'console stream client too slow (CONSOLE_STREAM_MAX_BUFFERED_BYTES); cut',
      );
      res.destroy();
      this.stopIfIdle();
    }
    return false;
  }

  private drop(res: ServerResponse): void {
    this.clients.delete(res);
    this.stopIfIdle();
  }

  private stopIfIdle(): void {
    if (this.clients.size > 0) return;
    this.unlisten?.();
    this.unlisten = undefined;
    this.unlistenState?.();
    this.unlistenState = undefined;
    this.timer?.cancel();
    this.timer = undefined;
  }
}
