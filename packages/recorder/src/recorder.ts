import type { Clock, Logger } from '@racedata/core';
import { CauseLog } from './cause-log';
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
  /**
   * How long the upstream holds a long poll before it answers 204 (the interface's 60 s by
   * default). Every request and handshake ends by 1.5 times this (requestTimeoutMs).
   */
  readonly longPollTimeoutMs?: number;
  /** The deadline of one request or handshake; default 1.5 times longPollTimeoutMs. */
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
export const DEFAULT_LONG_POLL_TIMEOUT_MS = 60_000;
/**
 * The most one answer (an events page, a listen answer) or WebSocket message may hold. Every
 * line is searched for credentials in all their forms before it is written, which costs about a
 * second for a line this large; a larger events page is read one event at a time instead.
 */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/**
 * After a stop, how long the transports get to end by themselves (a DISCONNECT's receipt, a close
 * handshake) before their sockets are cut; the files are closed and the summary given right
 * after, so a stop ends within 5 s whatever the upstream does.
 */
export const STOP_GRACE_MS = 3000;

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
  guard.add(options.key, 'key');
  guard.add(options.secret, 'secret');
  for (const secret of options.secrets ?? []) guard.add(secret, 'salt');
  const logger = guardedLogger(deps.logger, guard);
  const { clock } = deps;
  const causes = new CauseLog(logger, clock);
  const requestTimeoutMs =
    options.requestTimeoutMs ?? Math.ceil(1.5 * (options.longPollTimeoutMs ?? DEFAULT_LONG_POLL_TIMEOUT_MS));
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
    causes,
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
        causes,
        signal: abort.signal,
        requestTimeoutMs,
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
      causes,
      signal: abort.signal,
      requestTimeoutMs,
      maxMessageBytes: options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
      stats: stat,
    };
  };

  let poller: EventsPoller | undefined;
  const loops: Array<() => Promise<void>> = [];
  /** The socket transports' last resort, for a stop the upstream stalls. */
  const cutters: Array<() => void> = [];
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
      cutters.push(() => stream.terminate());
    } else {
      const stomp = new StompRecorderClient(ctx);
      loops.push(() => stomp.run());
      cutters.push(() => stomp.terminate());
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
  const running = Promise.all(
    loops.map((loop) =>
      loop().catch((err: unknown) => {
        if (failure === undefined) failure = err;
        reason = 'failed';
        abort.abort();
      }),
    ),
  );
  const stall = stalledStop(abort.signal, clock, logger, cutters);
  const finished = Promise.race([running, stall.stalled]).then(() => {
    stall.cancel();
    sink.close();
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

/**
 * `stalled` resolves once a stop has taken STOP_GRACE_MS and then half a second more: at the
 * grace the sockets still open are cut, and whatever is still winding down after that (nothing
 * should be) no longer holds the recording's end. `cancel` once the recording ended by itself.
 */
function stalledStop(
  signal: AbortSignal,
  clock: Clock,
  logger: Logger,
  cutters: ReadonlyArray<() => void>,
): { stalled: Promise<void>; cancel: () => void } {
  let timer: { cancel(): void } | undefined;
  let cancelled = false;
  const onStop = (resolve: () => void) => () => {
    if (cancelled) return;
    timer = clock.setTimeout(() => {
      logger.warn({ graceMs: STOP_GRACE_MS }, 'the upstream did not let go in time; its sockets were cut');
      for (const cut of cutters) cut();
      timer = clock.setTimeout(resolve, 500);
    }, STOP_GRACE_MS);
  };
  let listener: (() => void) | undefined;
  const stalled = new Promise<void>((resolve) => {
    listener = onStop(resolve);
    if (signal.aborted) listener();
    else signal.addEventListener('abort', listener, { once: true });
  });
  return {
    stalled,
    cancel: () => {
      cancelled = true;
      timer?.cancel();
      if (listener) signal.removeEventListener('abort', listener);
    },
  };
}
