import type { EventCursor } from './events-poller';
import type { Anonymiser } from './anonymise';
import type { RecordingSink } from './recording-sink';
import type { TransportStats } from './transport-context';
import { TRANSPORTS, type Transport } from './transports';

export type StopReason = 'stopped' | 'duration' | 'failed';

export interface TransportSummary {
  readonly transport: Transport;
  readonly messages: number;
  /** Lines written per channel, most first. */
  readonly channels: ReadonlyArray<readonly [string, number]>;
  readonly connects: number;
  readonly reauthentications: number;
  readonly retries: number;
}

/** What a recording did: printed as the progress line and as the summary at the end. */
export interface RecordSummary {
  readonly reason: StopReason;
  readonly durationMs: number;
  readonly messages: number;
  readonly transports: readonly TransportSummary[];
  /** Messages received twice (across transports, or a listen message sent again) and written once. */
  readonly duplicates: number;
  /** Upstream data that was no valid message: logged and skipped. */
  readonly malformed: number;
  /** Messages not written because they held a credential. */
  readonly withheld: number;
  /** Messages not written because the anonymiser could not walk them safely (a DOCTYPE, too deep). */
  readonly untransformable: number;
  /** Files written by this run, relative to --out. */
  readonly files: readonly string[];
  /** Where /customerapi/events stands: the last eventId recorded or passed. */
  readonly lastEventId: number | undefined;
  readonly anonymised: ReturnType<Anonymiser['summary']> | undefined;
}

export function summarise(p: {
  reason: StopReason;
  startedAt: number;
  now: number;
  sink: RecordingSink;
  files: readonly string[];
  stats: ReadonlyMap<Transport, TransportStats>;
  lastEventId: EventCursor | undefined;
  transformer: Anonymiser | undefined;
}): RecordSummary {
  const transports = TRANSPORTS.filter((t) => p.stats.has(t)).map((transport): TransportSummary => {
    const written = p.sink.counts.written.get(transport) ?? new Map<string, number>();
    const stat = p.stats.get(transport) as TransportStats;
    return {
      transport,
      messages: [...written.values()].reduce((a, b) => a + b, 0),
      channels: [...written.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)),
      connects: stat.connects,
      reauthentications: stat.reauthentications,
      retries: stat.retries,
    };
  });
  const { counts } = p.sink;
  return {
    reason: p.reason,
    durationMs: p.now - p.startedAt,
    messages: transports.reduce((sum, t) => sum + t.messages, 0),
    transports,
    duplicates: counts.duplicates,
    malformed: counts.malformed,
    withheld: counts.withheld,
    untransformable: counts.untransformable,
    files: p.files,
    lastEventId: typeof p.lastEventId === 'number' ? p.lastEventId : undefined,
    anonymised: p.transformer?.summary(),
  };
}

const CHANNELS_ON_PROGRESS = 4;

/** One line: totals, each transport's count and its busiest channels. */
export function progressLine(s: RecordSummary): string {
  const parts = s.transports.map((t) => {
    const top = t.channels.slice(0, CHANNELS_ON_PROGRESS).map(([c, n]) => `${c} ${n}`);
    if (t.channels.length > CHANNELS_ON_PROGRESS) top.push('…');
    return `${t.transport} ${t.messages}${top.length ? ` (${top.join(', ')})` : ''}`;
  });
  const skipped = s.duplicates + s.malformed + s.withheld + s.untransformable;
  return `record: ${s.messages} messages in ${Math.round(s.durationMs / 1000)} s: ${parts.join('; ')}${skipped ? `; skipped ${skipped}` : ''}`;
}

/** The summary printed when the recording ends. */
export function summaryText(s: RecordSummary): string {
  const why = { stopped: 'stopped', duration: 'duration reached', failed: 'failed' }[s.reason];
  const lines = [
    `record: ${why} after ${(s.durationMs / 1000).toFixed(1)} s: ${s.messages} messages written`,
  ];
  for (const t of s.transports) {
    const channels = t.channels.map(([c, n]) => `${c} ${n}`).join(', ');
    lines.push(
      `  ${t.transport.padEnd(6)} ${String(t.messages).padStart(7)}  connects ${t.connects}, re-authentications ${t.reauthentications}, retries ${t.retries}${channels ? `: ${channels}` : ''}`,
    );
  }
  lines.push(
    `  skipped: ${s.duplicates} duplicates, ${s.malformed} malformed, ${s.withheld} holding a credential${s.untransformable ? `, ${s.untransformable} the anonymiser could not walk safely` : ''}`,
  );
  if (s.lastEventId !== undefined)
    lines.push(`  events: last eventId ${s.lastEventId} (a re-run with the same --out continues after it)`);
  if (s.anonymised) {
    const list = (r: Record<string, number>) =>
      Object.entries(r)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'nothing';
    lines.push(
      `  anonymised ${s.anonymised.messages} messages: replaced ${list(s.anonymised.replaced)}; redacted ${list(s.anonymised.redacted)}`,
    );
  }
  lines.push(`  files: ${s.files.length ? s.files.join(', ') : 'none'}`);
  return lines.join('\n');
}
