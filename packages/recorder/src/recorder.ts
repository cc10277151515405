import type { Clock, Logger } from '@racedata/core';
import { Checkpoint } from './checkpoint';
import { DayFiles } from './day-files';
import { RecorderError } from './errors';
import { EventsPoller, type EventCursor } from './events-poller';
import { EventStreamClient } from './event-stream-client';
import type { FetchFn } from './http-client';
import type { Anonymiser } from './anonymise';
import { ListenPoller } from './listen-poller';
import { prepareOutDir } from './out-dir';
import { RecordingSink } from './recording-sink';
import { guardedLogger, SecretGuard } from './secret-guard';
import { StompRecorderClient } from './stomp-client';
import { summarise, type RecordSummary, type StopReason } from './summary';
import { newTransportStats, type TransportContext, type TransportStats } from './transport-context';
import { UPSTREAM_OF, type Transport } from './transports';
import { UpstreamSession } from './upstream-session';

export interface RecorderOptions {
  readonly outDir: string;
  /** Base URLs without /customerapi, e.g. https://api.example; needed by the transports that use them. */
  readonly jsonUrl?: string | undefined;
  readonly legacyUrl?: string | undefined;
  readonly key: string;
  readonly secret: string;
  readonly transports: readonly Transport[];
  /** Follow /customerapi/events from after this eventId (0: everything kept); default: only new events. */
  readonly fromEventId?: number | undefined;
  /** Stop by itself after this long. */
  readonly durationMs?: number | undefined;
  /** The anonymiser, when asked for. */
  readonly transformer?: Anonymiser | undefined;
  /** Further strings that must never be written or logged (the salt). */
  readonly secrets?: readonly string[];
  readonly requestTimeoutMs?: number;
  readonly maxMessageBytes?: number;
}

export interface RecorderDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly fetch?: FetchFn;
}

export interface Recording {
  /** What has been recorded so far. */
  progress(): RecordSummary;
  /** Ends the recording (closes sessions, flushes files) and resolves with its summary. */
  stop(): Promise<RecordSummary>;
  /** Settles when the recording ends: by stop(), by its duration, or failing (the key refused). */
  readonly finished: Promise<RecordSummary>;
}

const SYNC_INTERVAL_MS = 1000;

function upstreamUrl(options: RecorderOptions, transport: Transport): string {
  const url = UPSTREAM_OF[transport] === 'json' ? options.jsonUrl : options.legacyUrl;
  if (url === undefined) {
    throw new RecorderError('OPTIONS_INVALID', {
      detail: `the ${transport} transport needs the ${UPSTREAM_OF[transport]} simulator's URL`,
    });
  }
  return url;
}

/**
 * Records the customer interface into a recordings directory: prepares --out (refusing a broken
 * one), resumes from its checkpoint, starts one loop per transport and keeps them going until
 * stop(), the duration, or an upstream that refuses the key for good.
 */
export async function startRecording(options: RecorderOptions, deps: RecorderDeps): Promise<Recording> {
  if (options.transports.length === 0)
    throw new RecorderError('OPTIONS_INVALID', { detail: 'no transport to record' });
  const urls = new Map(options.transports.map((t) => [t, upstreamUrl(options, t)]));
  const guard = new SecretGuard();
  for (const secret of [options.key, options.secret, ...(options.secrets ?? [])]) guard.add(secret);
  const logger = guardedLogger(deps.logger, guard);
  const { clock } = deps;
  const fetchFn = deps.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init));
  await prepareOutDir(options.outDir, logger);
  const checkpoint = await Checkpoint.open(options.outDir, logger);
  const files = new DayFiles(options.outDir);
  const sink = new RecordingSink({
    files,
    checkpoint,
    guard,
    transformer: options.transformer,
    logger,
    clock,
  });
  const abort = new AbortController();
  const startedAt = clock.now();
  const stats = new Map<Transport, TransportStats>();
  const sessions = new Map<string, UpstreamSession>();
  const sessionFor = (base: string, name: string) => {
    let session = sessions.get(base);
    if (!session) {
      session = new UpstreamSession(base, name, options, {
        fetch: fetchFn,
        clock,
        logger,
        guard,
        signal: abort.signal,
      });
      sessions.set(base, session);
    }
    return session;
  };
  const contextFor = (transport: Transport): TransportContext => {
    const stat = newTransportStats();
    stats.set(transport, stat);
    return {
      session: sessionFor(urls.get(transport) as string, UPSTREAM_OF[transport]),
      sink,
      fetch: fetchFn,
      clock,
      logger,
      signal: abort.signal,
      requestTimeoutMs: options.requestTimeoutMs ?? 180_000,
      maxMessageBytes: options.maxMessageBytes ?? 32 * 1024 * 1024,
      stats: stat,
    };
  };

  let poller: EventsPoller | undefined;
  const loops: Array<() => Promise<void>> = [];
  for (const transport of options.transports) {
    const ctx = contextFor(transport);
    if (transport === 'events') {
      const resumed = checkpoint.resume.events;
      let start: EventCursor = options.fromEventId ?? 'latest';
      if (resumed && resumed.source === ctx.session.base && resumed.eventId !== undefined) {
        start = Math.max(resumed.eventId, options.fromEventId ?? 0);
        logger.info({ lastEventId: start }, 'continuing after the last recorded event');
      } else if (resumed) {
        logger.warn(
          { recordedFrom: resumed.source },
          'this directory was recorded from another upstream; its eventIds are not followed',
        );
      }
      poller = new EventsPoller(ctx, start, startedAt);
      loops.push(() => (poller as EventsPoller).run());
    } else if (transport === 'listen') {
      const resumed = checkpoint.resume.listen;
      const sha = resumed && resumed.source === ctx.session.base ? resumed.xmlSha : undefined;
      const listen = new ListenPoller(ctx, sha);
      loops.push(() => listen.run());
    } else if (transport === 'stream') {
      const stream = new EventStreamClient(ctx);
      loops.push(() => stream.run());
    } else {
      const stomp = new StompRecorderClient(ctx);
      loops.push(() => stomp.run());
    }
  }

  let reason: StopReason = 'stopped';
  let failure: unknown;
  const progress = (): RecordSummary =>
    summarise({
      reason,
      startedAt,
      now: clock.now(),
      sink,
      files: files.files(),
      stats,
      lastEventId: poller?.lastEventId,
      transformer: options.transformer,
    });
  const syncTimer = clock.setInterval(() => {
    try {
      files.sync();
      checkpoint.sync();
    } catch (err) {
      logger.error({ reason: (err as Error).message }, 'flushing the recording to disk failed');
    }
  }, SYNC_INTERVAL_MS);
  const durationTimer =
    options.durationMs === undefined
      ? undefined
      : clock.setTimeout(() => {
          reason = 'duration';
          abort.abort();
        }, options.durationMs);

  logger.info({ transports: options.transports, out: options.outDir }, 'recording');
  const finished = Promise.all(
    loops.map((loop) =>
      loop().catch((err: unknown) => {
        if (failure === undefined) failure = err;
        reason = 'failed';
        abort.abort();
      }),
    ),
  ).then(() => {
    syncTimer.cancel();
    durationTimer?.cancel();
    files.close();
    checkpoint.close();
    if (failure !== undefined) throw failure;
    return progress();
  });
  // A failure is the caller's to report through `finished`; this keeps it from counting as unhandled.
  finished.catch(() => undefined);
  return {
    progress,
    finished,
    stop: () => {
      abort.abort();
      return finished;
    },
  };
}
