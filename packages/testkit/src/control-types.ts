/**
 * The wire types of the control plane and of the two injection endpoints, as the client sends
 * and receives them. The control plane declares its bodies once (packages/control/src/wire.ts);
 * they are re-exported here rather than copied, so the client and the server cannot drift apart.
 */
import type { EventInput, SimulatorKind } from '@racedata/core';
import type {
  ControlState,
  JournalEntry,
  JournalFilter,
  ResetRequest,
  SandboxInfo,
  SessionTransport,
  UserInfo,
} from '@racedata/control';

export type {
  ChannelKind,
  EventInput,
  ReplayView,
  SimulatorKind,
  SimulatorSettings,
  TransportInfo,
  TransportKind,
  UserSpec,
} from '@racedata/core';
export type {
  CatalogChannel,
  CertificationCheck,
  CertificationPhase,
  CertificationState,
  CertificationSummary,
  ClosedEntry,
  DeliveredEntry,
  FaultAction,
  FaultMatch,
  FaultRule,
  FaultRuleInput,
  FaultTransport,
  JournalEntry,
  JournalKind,
  JournalSource,
  JournalTransport,
  RaceDayActionRequest,
  RaceDayActionResult,
  RaceDayGotoRequest,
  RaceDayGotoResult,
  RaceDayMessage,
  RaceDayPlay,
  RaceDayRequest,
  RaceDayState,
  RaceDaySummary,
  ReceivedEntry,
  ReplayState,
  SandboxInfo,
  SandboxUser,
  SchemaIndex,
  SessionTransport,
  UserState,
} from '@racedata/control';
export type {
  EdgeCasePlacement,
  MeetingView,
  PayloadSchema,
  PlanView,
  RaceView,
  StarterStatus,
  StarterView,
} from '@racedata/race-day';

/** GET /_sim/state. */
export type SimState = ControlState;

/** A user of GET /_sim/users: what a test needs to authenticate as it and what it may read. */
export type SimulatorUser = UserInfo;

/** GET /_sim/sandboxes. */
export interface SandboxList {
  /** SANDBOX_MAX: how many may exist at once. */
  readonly max: number;
  readonly sandboxes: SandboxInfo[];
}

/** GET /_sim/messages/{seq}: a `received` entry and what it carried (event JSON or XML text). */
export interface KeptMessage {
  readonly entry: JournalEntry;
  readonly payload: unknown;
}

/** A replay speed: one message every `intervalMs`, or the recorded gaps capped at `maxDelayMs`. */
export type ReplaySpeed =
  | { readonly intervalMs?: number; readonly maxDelayMs?: never }
  | { readonly maxDelayMs: number; readonly intervalMs?: never };

/** POST /_sim/events: how many events were stored and their eventIds (null when none). */
export interface SeedResult {
  readonly seeded: number;
  readonly firstEventId: number | null;
  readonly lastEventId: number | null;
}

/** POST /_sim/reset: every key optional; the server's defaults clear everything but sockets. */
export type ResetOptions = Partial<ResetRequest>;

/** What a reset cleared, by name (events, queuedMessages, heldPolls, sockets, journalEntries...). */
export interface ResetResult {
  readonly cleared: Record<string, number>;
  readonly eventIds: 'restart' | 'continue';
}

/** GET /_sim/journal: the filter (user, transport, channel, kind, since) and a page size. */
export interface JournalQuery extends JournalFilter {
  readonly limit?: number;
}

/** A page of the journal; pass `nextSince` as `since` to read on. */
export interface JournalPage {
  readonly entries: JournalEntry[];
  readonly nextSince: number;
}

export interface WaitOptions {
  /** Entries to wait for (default 1). */
  readonly count?: number;
  /** ms the simulator waits before answering 408 (default 5000, at most 600000). */
  readonly timeout?: number;
}

/** POST /_sim/connections/close: which sessions, and the close code they get (default 1000). */
export interface CloseConnectionsFilter {
  readonly user?: string;
  readonly transport?: SessionTransport;
  readonly code?: number;
}

/** POST /_sim/clock/advance. */
export interface ClockAdvance {
  readonly advancedMs: number;
  readonly clockOffsetMs: number;
  readonly time: string;
  /** Timers the advance made due (retention, JWT expiry, replay, delays...). */
  readonly timersFired: number;
}

/** A durable event as the JSON simulator stores and serves it. */
export interface StoredEvent extends EventInput {
  readonly eventId: number;
  readonly created_at: string;
}

/** POST /api/message: durable channels are stored (201), transient ones broadcast once (202). */
export type PostResult =
  | { readonly delivery: 'durable'; readonly event: StoredEvent }
  | { readonly delivery: 'transient'; readonly recipients: number };

/** POST /customerapi/channel/{channel}/Durable|NonDurable?payloadKey= on the legacy simulator. */
export interface InjectOptions {
  /** Durable (queued for the long poll, the default) or NonDurable (to live STOMP sessions). */
  readonly durable?: boolean;
  /** A catalog channel (its subscribers only) or `id`, every user (the default). */
  readonly channel?: string;
  readonly payloadKey?: string;
}

/** How many users' queues took a durable message, or how many STOMP sessions a transient one. */
export type InjectResult =
  | { readonly delivery: 'durable'; readonly queued: number }
  | { readonly delivery: 'transient'; readonly recipients: number };

/** POST /_sim/sandboxes: everything optional; no replay unless asked for. */
export interface SandboxOptions {
  /** `true`: the recordings, one message a second; or how to replay them. */
  readonly replay?:
    | boolean
    | {
        readonly intervalMs?: number;
        readonly maxDelayMs?: number;
        readonly initialDelayMs?: number;
        readonly rebaseDates?: boolean;
      };
  readonly longPollTimeoutMs?: number;
}

/** GET /health. */
export interface Health {
  readonly status: string;
  readonly simulator: SimulatorKind;
  /** The racedata-sim version; `unknown` for a simulator started in-process without one. */
  readonly version: string;
  /** ISO 8601. */
  readonly startedAt: string;
  /** Real time since the simulator started; /_sim/clock does not move it. */
  readonly uptimeMs: number;
}
