import { createHash } from 'node:crypto';
import { parseRecordingLine, type Clock, type Logger } from '@racedata/core';
import type { Checkpoint } from './checkpoint';
import type { DayFiles, RecordingFolder } from './day-files';
import type { Anonymiser } from './anonymise';
import type { CauseLog } from './cause-log';
import { isRecorderError } from './errors';
import { RecentSet } from './recent-set';
import type { RecordingLineJson, RecordingLineLegacy } from './recording-line-types';
import type { SecretGuard } from './secret-guard';
import type { Transport } from './transports';

/** Messages remembered to spot one the event stream sends that /events already gave us. */
const RECENT_DURABLE = 4096;
/** Counted per channel up to this many channel names; the rest under `(other)`. */
const MAX_CHANNELS = 500;

export interface SinkCounts {
  /** Lines written, by transport and channel. */
  readonly written: Map<Transport, Map<string, number>>;
  duplicates: number;
  malformed: number;
  /** Held a credential in some form (secret-guard.ts): not written. */
  withheld: number;
  /** The anonymiser could not walk it safely (a DOCTYPE, nesting too deep): not written. */
  untransformable: number;
}

export interface SinkDeps {
  readonly files: DayFiles;
  readonly checkpoint: Checkpoint;
  readonly guard: SecretGuard;
  readonly transformer: Anonymiser | undefined;
  readonly logger: Logger;
  /** Skipped messages, logged once per cause per interval. */
  readonly causes: CauseLog;
  readonly clock: Clock;
}

function fingerprint(message: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(message)).digest('hex').slice(0, 32);
}

/**
 * Where every received message goes: deduplicated across the transports of one upstream,
 * transformed (anonymised, redacted), checked to be a valid recording line with no credential in
 * it, then written, durable ones behind a checkpoint entry. Each step that refuses a message
 * counts it and logs why (once per cause per interval), never its content. Once closed, nothing
 * more is written: a transport still winding down after a forced stop cannot touch the files.
 */
export class RecordingSink {
  readonly counts: SinkCounts = {
    written: new Map(),
    duplicates: 0,
    malformed: 0,
    withheld: 0,
    untransformable: 0,
  };
  private closed = false;
  private readonly recentDurable = new RecentSet(RECENT_DURABLE);
  private readonly durableChannels = new RecentSet(MAX_CHANNELS);
  private channelNames = 0;

  constructor(private readonly deps: SinkDeps) {}

  /** No line is written after this. */
  close(): void {
    this.closed = true;
  }

  /** The arrival time every line carries as `at`. */
  arrival(): string {
    return new Date(this.deps.clock.now()).toISOString();
  }

  /** A JSON message; `eventId` (with `source`) for an event of /customerapi/events. */
  json(
    transport: Transport,
    line: RecordingLineJson,
    durable?: { readonly eventId: number; readonly source: string },
  ): boolean {
    const channel = String(line.message.channel);
    const print = fingerprint(line.message);
    // Durable messages are the events long poll's: it numbers them, so they are written from
    // there alone; an event-stream copy (a channel /events has shown durable, or the same message
    // /events just gave) is a duplicate. The interface sends only transient channels on the
    // stream, so this guards against an upstream that does otherwise.
    if (!durable && (this.durableChannels.has(channel) || this.recentDurable.has(print))) {
      this.counts.duplicates++;
      this.deps.logger.debug({ transport, channel }, 'skipped a durable message the event stream sent too');
      return false;
    }
    const out = this.transform(transport, channel, line, (t) => t.jsonLine(line));
    if (out === undefined) return false;
    const text = JSON.stringify({ at: out.at, delivery: out.delivery, ...out.message });
    const written = this.write('json', transport, channel, out.at, text, (place) => {
      if (durable) this.deps.checkpoint.record({ kind: 'events', ...durable, ...place });
    });
    if (written && durable) {
      this.recentDurable.add(print);
      this.durableChannels.add(channel);
    }
    return written;
  }

  /** A legacy message; `xmlSha` (with `source`) for a listen answer, to know it if it comes again. */
  legacy(
    transport: Transport,
    line: RecordingLineLegacy,
    durable?: { readonly xmlSha: string; readonly source: string },
  ): boolean {
    const out = this.transform(transport, line.channel, line, (t) => t.legacyLine(line));
    if (out === undefined) return false;
    const text = JSON.stringify({
      at: out.at,
      delivery: out.delivery,
      channel: out.channel,
      payloadKey: out.payloadKey,
      xml: out.xml,
    });
    return this.write('legacy', transport, line.channel, out.at, text, (place) => {
      if (durable) this.deps.checkpoint.record({ kind: 'listen', ...durable, ...place });
    });
  }

  /**
   * Upstream data that is no message: counted and skipped, and logged (the reason, not the data)
   * unless the caller logs it as a fault of its own.
   */
  malformed(transport: Transport, reason: string, log = true): void {
    this.counts.malformed++;
    if (log) {
      this.deps.causes.warn(
        `${transport}: malformed: ${reason}`,
        { transport, reason },
        'malformed upstream data skipped',
      );
    }
  }

  /**
   * The line through the anonymiser, or undefined when it refused it (XML with a DOCTYPE, JSON
   * nested too deep): that message is skipped with its reason and the recording goes on.
   */
  private transform<T>(
    transport: Transport,
    channel: string,
    line: T,
    run: (t: Anonymiser) => T,
  ): T | undefined {
    const { transformer } = this.deps;
    if (transformer === undefined) return line;
    try {
      return run(transformer);
    } catch (err) {
      if (!isRecorderError(err)) throw err;
      this.counts.untransformable++;
      this.deps.causes.warn(
        `${transport}: not anonymised: ${err.code}`,
        { transport, channel, reason: err.message },
        'a message the anonymiser cannot walk safely was not written',
      );
      return undefined;
    }
  }

  private write(
    folder: RecordingFolder,
    transport: Transport,
    channel: string,
    at: string,
    text: string,
    before: Parameters<DayFiles['append']>[3],
  ): boolean {
    if (this.closed) return false;
    const checked = parseRecordingLine(folder, text, transport);
    if (!checked.ok) {
      this.malformed(transport, `not a valid recording line: ${checked.error}`);
      return false;
    }
    const found = this.deps.guard.find(text);
    if (found !== undefined) {
      this.counts.withheld++;
      this.deps.causes.warn(
        `${transport}: holds the ${found.credential} (${found.form})`,
        { transport, channel, credential: found.credential, form: found.form },
        'a message holding a credential was not written',
      );
      return false;
    }
    this.deps.files.append(folder, at, text, before);
    this.count(transport, channel);
    return true;
  }

  private count(transport: Transport, channel: string): void {
    let channels = this.counts.written.get(transport);
    if (!channels) this.counts.written.set(transport, (channels = new Map()));
    let name = channel;
    if (!channels.has(name)) {
      if (this.channelNames >= MAX_CHANNELS) name = '(other)';
      else this.channelNames++;
    }
    channels.set(name, (channels.get(name) ?? 0) + 1);
  }
}
