import { createHash } from 'node:crypto';
import { parseRecordingLine, type Clock, type Logger } from '@racedata/core';
import type { Checkpoint } from './checkpoint';
import type { DayFiles, RecordingFolder } from './day-files';
import type { Anonymiser } from './anonymise';
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
  withheld: number;
}

export interface SinkDeps {
  readonly files: DayFiles;
  readonly checkpoint: Checkpoint;
  readonly guard: SecretGuard;
  readonly transformer: Anonymiser | undefined;
  readonly logger: Logger;
  readonly clock: Clock;
}

function fingerprint(message: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(message)).digest('hex').slice(0, 32);
}

/**
 * Where every received message goes: deduplicated across the transports of one upstream,
 * transformed (anonymised, redacted), checked to be a valid recording line with no credential in
 * it, then written, durable ones behind a checkpoint entry. Each step that refuses a message
 * counts it and logs why, never its content.
 */
export class RecordingSink {
  readonly counts: SinkCounts = { written: new Map(), duplicates: 0, malformed: 0, withheld: 0 };
  private readonly recentDurable = new RecentSet(RECENT_DURABLE);
  private readonly durableChannels = new RecentSet(MAX_CHANNELS);
  private channelNames = 0;

  constructor(private readonly deps: SinkDeps) {}

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
    const out = this.deps.transformer ? this.deps.transformer.jsonLine(line) : line;
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
    const out = this.deps.transformer ? this.deps.transformer.legacyLine(line) : line;
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

  /** Upstream data that is no message: logged (the reason, not the data) and skipped. */
  malformed(transport: Transport, reason: string): void {
    this.counts.malformed++;
    this.deps.logger.warn({ transport, reason }, 'malformed upstream data skipped');
  }

  private write(
    folder: RecordingFolder,
    transport: Transport,
    channel: string,
    at: string,
    text: string,
    before: Parameters<DayFiles['append']>[3],
  ): boolean {
    const checked = parseRecordingLine(folder, text, transport);
    if (!checked.ok) {
      this.malformed(transport, `not a valid recording line: ${checked.error}`);
      return false;
    }
    if (this.deps.guard.contains(text)) {
      this.counts.withheld++;
      this.deps.logger.warn({ transport, channel }, 'a message holding a credential was not written');
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
