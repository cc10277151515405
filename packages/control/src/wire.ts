/**
 * The wire types of the control plane: the bodies /_sim/* answers and accepts, declared once.
 * The server builds its answers from them; the test kit re-exports them and the QA console
 * imports them as types. Nothing here may import a module that needs Node (the console's type
 * check includes this file), only types from core.
 */
import type { ChannelKind, ReplayView, SimulatorKind, TransportInfo } from '@racedata/core';
import type { MeetingView, Phase, PlanView, RaceDayAction, RaceView } from '@racedata/race-day';

// ---- The journal (GET /_sim/journal, /_sim/journal/wait, the console stream)

/**
 * Where a received message came from: the `source` a transport of the simulator's description
 * declares for what it takes in, or the replay (core's own).
 */
export type JournalSource = string;

/** A journalled transport of the simulator's description (its delivered entries carry the name). */
export type JournalTransport = string;

/** What identifies a message in an entry: the JSON simulator's eventId, the legacy payloadKey. */
export interface MessageRef {
  readonly eventId?: number;
  readonly payloadKey?: string;
}

/** A message the simulator took in: over one of its transports, or from the replay. */
export interface ReceivedEntry extends MessageRef {
  readonly seq: number;
  /** ISO time on the simulator's (advanceable) clock. */
  readonly time: string;
  readonly kind: 'received';
  readonly source: JournalSource;
  readonly channel: string;
  readonly durable: boolean;
  /** Source `race-day`: the action (POST /_sim/race-day/actions) that made the message, if one did. */
  readonly action?: string;
}

/** A message handed to one user's client. */
export interface DeliveredEntry extends MessageRef {
  readonly seq: number;
  readonly time: string;
  readonly kind: 'delivered';
  readonly user: string;
  readonly transport: JournalTransport;
  readonly channel: string;
  /** The HTTP status of a long poll or page; 101 for a message written to an open WebSocket. */
  readonly status: number;
}

/** A WebSocket or STOMP session of a user ended, with the close code seen on the wire. */
export interface ClosedEntry {
  readonly seq: number;
  readonly time: string;
  readonly kind: 'closed';
  readonly user: string;
  /** A session transport of the simulator's description. */
  readonly transport: string;
  /** The close code of the closing handshake (1005: none given, 1006: cut without one). */
  readonly code: number;
}

export type JournalEntry = ReceivedEntry | DeliveredEntry | ClosedEntry;

/** An entry with every field any kind has, absent where its kind has none: for listing entries alike. */
export type AnyJournalEntry = JournalEntry &
  Partial<Omit<ReceivedEntry, 'kind'> & Omit<DeliveredEntry, 'kind'> & Omit<ClosedEntry, 'kind'>>;

export const JOURNAL_KINDS = ['received', 'delivered', 'closed'] as const;

export type JournalKind = (typeof JOURNAL_KINDS)[number];

/** Which entries a reader wants; every field optional. */
export interface JournalFilter {
  readonly user?: string;
  readonly transport?: JournalTransport;
  readonly channel?: string;
  readonly kind?: JournalKind;
  /** Only entries with a larger seq. */
  readonly since?: number;
}

export interface JournalPage {
  readonly entries: JournalEntry[];
  /** The `since` that continues after this page. */
  readonly nextSince: number;
}

// ---- Fault rules (POST /_sim/faults, GET /_sim/faults)

/** A transport a fault rule names: one of the simulator's own (its description says which). */
export type FaultTransport = string;

/** A WebSocket session transport of the simulator's description. */
export type SessionTransport = string;

export interface FaultMatch {
  readonly transport?: FaultTransport;
  /** An exact path, or a prefix ending in `*`. */
  readonly path?: string;
  readonly user?: string;
  /** Only for drop: the channel of the delivery. */
  readonly channel?: string;
}

export type FaultAction =
  | {
      readonly type: 'status';
      readonly status: number;
      readonly body?: string | Record<string, unknown>;
      readonly retryAfter?: number;
    }
  | { readonly type: 'delay'; readonly ms: number }
  | { readonly type: 'hold' }
  | { readonly type: 'disconnect'; readonly code?: number; readonly reset?: boolean }
  | { readonly type: 'drop' };

export interface FaultRuleInput {
  readonly match: FaultMatch;
  readonly action: FaultAction;
  readonly times?: number;
  readonly forMs?: number;
}

export interface FaultRule extends FaultRuleInput {
  readonly id: string;
  fired: number;
}

// ---- State and reset (GET /_sim/state, POST /_sim/reset)

/** One user's connections and waits, the same fields on both simulators (0 where n/a). */
export interface UserState {
  /** Open WebSocket sessions (of the simulator's session transport). */
  readonly sockets: number;
  /** Long polls held now. */
  readonly heldPolls: number;
  /** Legacy messages waiting for a poll; always 0 on the JSON simulator. */
  readonly queueDepth: number;
  /**
   * Legacy messages written to a listen answer whose client has not yet shown it read them (its
   * next request or a clean close); each goes back to the queue if the connection ends in a reset.
   * Always 0 on the JSON simulator.
   */
  readonly unconfirmed: number;
}

export interface ReplayState {
  readonly on: boolean;
  readonly mode: 'interval' | 'timed' | null;
  /** Messages of the current pass replayed so far, of `total`; 0 of 0 without a replay. */
  readonly position: number;
  readonly total: number;
  /** Passes completed and restarted. */
  readonly loops: number;
  /** Messages replayed over all passes. */
  readonly sent: number;
}

/** What a simulator contributes to GET /_sim/state. */
export interface SimulatorState {
  readonly users: Record<string, UserState>;
  /** JSON simulator: the durable event store. */
  readonly store?: { readonly events: number; readonly bytes: number; readonly lastEventId: number };
  /** Legacy simulator: the per-user queues. */
  readonly queues?: { readonly messages: number; readonly bytes: number };
  readonly replay: ReplayState;
}

/** GET /_sim/state: what the simulator contributes and what the control plane knows. */
export interface ControlState extends SimulatorState {
  readonly simulator: SimulatorKind;
  /** ISO time on the simulator's clock (moved by POST /_sim/clock/advance). */
  readonly time: string;
  readonly clockOffsetMs: number;
  /** `lastSeq` is the `since` that waits only for what happens from now on. */
  readonly journal: {
    readonly entries: number;
    readonly max: number;
    readonly lastSeq: number;
    /** Journal waits held now. */
    readonly waiters: number;
  };
  /** The simulator's customer transports, as its description declares them. */
  readonly transports: readonly TransportInfo[];
  /** The race day this simulator plays, if any. */
  readonly raceDay: RaceDaySummary;
  /** Only on a simulator `racedata-sim certify` runs: where its certification is. */
  readonly certification?: CertificationSummary;
}

/** What a simulator cleared on reset, by name (events, queuedMessages, heldPolls, sockets...). */
export type ResetCounts = Record<string, number>;

/** What POST /_sim/reset may be asked to do; every field has a default. */
export interface ResetRequest {
  readonly events: boolean;
  readonly queues: boolean;
  readonly journal: boolean;
  /** Fault rules, and token expiries set by POST /_sim/tokens/expire. */
  readonly faults: boolean;
  readonly eventIds: 'restart' | 'continue';
  readonly closeSockets: boolean;
  /** Back to the real time: a reset's promise is "as freshly started", clock included. */
  readonly clock: boolean;
}

// ---- The console stream (GET /_sim/stream), catalog (GET /_sim/catalog) and sandboxes (/_sim/sandboxes)

/** A fault rule as the console shows it: a status rule's body only by its size. */
export type ConsoleFaultRule = Omit<FaultRule, 'action'> & {
  readonly action: WithoutBody<FaultAction> & { readonly bodyBytes?: number };
};

/** Each action of the union without its body (Omit alone would merge the union into one). */
type WithoutBody<A> = A extends unknown ? Omit<A, 'body'> : never;

/**
 * The state event of the console stream, without the `time` the stream adds as it sends it:
 * GET /_sim/state's counts plus the replay's settings and the rules, each body by its size.
 */
export interface ConsoleState extends Omit<SimulatorState, 'replay'> {
  readonly simulator: SimulatorKind;
  readonly clockOffsetMs: number;
  readonly replay: ReplayView;
  readonly faults: readonly ConsoleFaultRule[];
  readonly journal: { readonly entries: number; readonly max: number; readonly lastSeq: number };
  /** Only on a simulator `racedata-sim certify` runs: its certification, checks and evidence. */
  readonly certification?: CertificationState;
}

/** The state event as the console stream sends it: the state with the simulator's time then. */
export type ConsoleStateEvent = ConsoleState & { readonly time: string };

/** One user of GET /_sim/users: what a test needs to authenticate as it and what it may read. */
export interface UserInfo {
  readonly key: string;
  readonly name: string;
  /** For POST …/authenticate with key and secret. */
  readonly secret: string;
  /** The fixed token; valid in every token mode until expired through the control plane. */
  readonly token: string;
  /** The catalog channels the user may read. */
  readonly channels: string[];
}

/** One channel of GET /_sim/catalog, with what the console's post form starts from. */
export interface CatalogChannel {
  readonly name: string;
  readonly kind: ChannelKind;
  /**
   * A recorded message of the channel with its dates moved to today: the JSON simulator's
   * message body, or the legacy document and its payloadKey. null when the recordings hold none.
   */
  readonly sample:
    { readonly message: object } | { readonly xml: string; readonly payloadKey: string } | null;
}

export interface SandboxUser {
  readonly key: string;
  readonly secret: string;
  readonly token: string;
  readonly channels: string[];
}

export interface SandboxInfo {
  readonly id: string;
  readonly basePath: string;
  readonly users: SandboxUser[];
  readonly createdAt: string;
  readonly lastUsedAt: string;
}

// ---- A certification (GET /_sim/certification, the console stream's state on a certify simulator)

/** A check of the certification: `pending` until its scenario grades it. */
export type CertificationCheckStatus = 'pending' | 'pass' | 'fail' | 'warn' | 'skip';

export interface CertificationCheck {
  readonly id: string;
  /** The scenario that grades it. */
  readonly scenario: string;
  readonly required: boolean;
  readonly status: CertificationCheckStatus;
  /** What the client must do while pending; what it did, or did not do, once graded. */
  readonly summary: string;
  /** A failure listed in --expected-failures: shown, but it does not fail the run. */
  readonly expectedFailure?: boolean;
  /** What decided the verdict (at most 60 lines); empty while pending. */
  readonly evidence: ReadonlyArray<{ readonly at: string; readonly what: string }>;
}

/**
 * Where the certification is: `waiting` for the client's first request, `playing` a scenario,
 * `finished` with every selected check graded, or `aborted` early (the client exited, the run
 * timed out, Ctrl-C), with the reason in `aborted`.
 */
export type CertificationPhase = 'waiting' | 'playing' | 'finished' | 'aborted';

/** The simulator timings the certification runs with (short, so a suite takes under a minute). */
export interface CertificationTimings {
  readonly longPollTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly authTimeoutMs: number;
  readonly tokenTtlSeconds: number;
  readonly stompHeartBeatMs: number;
}

/** GET /_sim/certification: the certification this simulator serves, as it goes. */
export interface CertificationState {
  /** The suite this simulator plays (`events`, `stream`, `listen`, `stomp`). */
  readonly suite: string;
  /** The client command line, or `attached` for a client started by hand (--attach). */
  readonly client: string;
  readonly attached: boolean;
  readonly timings: CertificationTimings;
  readonly startedAt: string;
  readonly phase: CertificationPhase;
  /** The scenario playing now (phase `playing`). */
  readonly scenario?: string;
  /** How long after its start the client made its first request. */
  readonly clientReadyAfterMs?: number;
  /** Every check the run selected, in the order they are played; pending ones included. */
  readonly checks: readonly CertificationCheck[];
  /** Checks graded pass. */
  readonly passed: number;
  /** Required checks that failed and were not expected to (what fails the run). */
  readonly failed: number;
  /** Why the suite ended early: `client exited with code 3 after 812 ms`, `interrupted`... */
  readonly aborted?: string;
  /**
   * Requests and upgrades that were not the certified client's (--attach: another process on
   * the port): how many, and the first few. Never graded.
   */
  readonly foreign?: CertificationForeign;
}

export interface CertificationForeign {
  readonly count: number;
  readonly sample: ReadonlyArray<{ readonly at: string; readonly what: string }>;
}

/** GET /_sim/state's `certification`: where it is, without the checks. */
export interface CertificationSummary {
  readonly suite: string;
  readonly phase: CertificationPhase;
  readonly scenario?: string;
  readonly checks: number;
  readonly graded: number;
  readonly passed: number;
  readonly failed: number;
}

// ---- The race day (GET/POST/DELETE /_sim/race-day) and the payload schemas (GET /_sim/schemas)

/** How the race day plays on this simulator. */
export interface RaceDayPlay {
  /** 1 is real time on the simulator's clock; 60 an hour a minute. */
  readonly speed: number;
  /** Where the day stood when play started: now, next-race or HH:MM. */
  readonly at: string;
  /** The simulator clock's time when play started (ISO, UTC). */
  readonly startedAt: string;
  /** The day's local time then. */
  readonly dayStartedAt: string;
  /** The day's local time now, on this simulator's clock. */
  readonly dayTime: string;
  /** The simulator clock now (ISO, UTC). */
  readonly clockTime: string;
  /** Messages handed to the simulator so far: the history, then each one played. */
  readonly played: number;
}

/** A race of GET /_sim/race-day: the plan's view, and the actions allowed on it now. */
export interface RaceDayRaceState extends RaceView {
  /** Its race actions and its meeting's, as POST /_sim/race-day/actions would take them now. */
  readonly allowed: readonly string[];
}

/** A meeting of GET /_sim/race-day: the plan's view, and the meeting actions allowed now. */
export interface RaceDayMeetingState extends Omit<MeetingView, 'races'> {
  readonly allowed: readonly string[];
  readonly races: readonly RaceDayRaceState[];
}

/** GET /_sim/race-day: the plan as it stands now, and how it plays. */
export interface RaceDayState extends Omit<PlanView, 'meetings'> {
  readonly meetings: readonly RaceDayMeetingState[];
  readonly play: RaceDayPlay;
}

/** GET /_sim/state's `raceDay`. */
export type RaceDaySummary =
  | { readonly on: false }
  | {
      readonly on: true;
      readonly date: string;
      readonly seed: number;
      readonly speed: number;
      readonly dayTime: string;
      readonly played: number;
    };

/** What POST /_sim/race-day takes; every field defaults to the simulator's settings, then to today. */
export interface RaceDayRequest {
  /** `today` or YYYY-MM-DD. */
  readonly date?: string;
  readonly seed?: number;
  /** `auto`, `trot:N,gallop:N` or `{trot, gallop}`. */
  readonly meetings?: string | { readonly trot?: number; readonly gallop?: number };
  /** `default`, `all`, `none`, or ids (`id`, `id@trackId`, `id@trackId:raceNr`) as a list or comma-separated. */
  readonly edgeCases?: string | readonly string[];
  readonly speed?: number;
  /** `now`, `next-race` or `HH:MM`. */
  readonly at?: string;
}

/** GET /_sim/schemas. */
export interface SchemaIndex {
  /** The JSON Schema dialect every schema declares. */
  readonly dialect: string;
  readonly channels: ReadonlyArray<{
    readonly channel: string;
    readonly delivery: 'durable' | 'transient';
    readonly title: string;
    /** Where GET fetches the schema. */
    readonly href: string;
  }>;
  /** How legacy XML documents map onto the same payload model. */
  readonly legacy: { readonly rule: string; readonly channels: Readonly<Record<string, readonly string[]>> };
}

// ---- Steering the race day (POST /_sim/race-day/actions, /goto)

/** The body of POST /_sim/race-day/actions: `{action, trackId, raceNr, ...its arguments}`. */
export type RaceDayActionRequest = RaceDayAction;

/** One message an action made, as its answer lists it: the JSON event, and how it goes out. */
export interface RaceDayMessage {
  /** The JSON channel (`ScratchingsTrot`); the legacy simulator's is `legacyChannel`. */
  readonly channel: string;
  readonly legacyChannel: string;
  readonly delivery: 'durable' | 'transient';
  readonly date: string;
  readonly trackId: number;
  readonly raceNr?: number;
  readonly startNr?: number;
  /** The day's local time it went out at. */
  readonly at: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** The answer to POST /_sim/race-day/actions. */
export interface RaceDayActionResult {
  readonly action: string;
  readonly trackId: number;
  readonly raceNr?: number;
  /** The named race's phase after the action. */
  readonly phase?: Phase;
  /** Every race of the meeting with its phase after the action. */
  readonly races: ReadonlyArray<{ readonly raceNr: number; readonly phase: Phase }>;
  /** The day's local time the action was taken at. */
  readonly dayTime: string;
  /** What the action sent at once on this simulator, in order (what follows from it comes when due). */
  readonly emitted: readonly RaceDayMessage[];
  /** The actions allowed now on the race (and its meeting). */
  readonly allowed: readonly string[];
}

/** The body of POST /_sim/race-day/goto. */
export interface RaceDayGotoRequest {
  readonly trackId: number;
  readonly raceNr: number;
  /** parade, countdown, start (running), finish (finished), result: where that phase begins. */
  readonly phase: 'parade' | 'countdown' | 'start' | 'running' | 'finish' | 'finished' | 'result';
  /** From that moment, in ms of the day: -30000 is 30 s before. */
  readonly offsetMs?: number;
}

/** The answer to POST /_sim/race-day/goto. */
export interface RaceDayGotoResult {
  readonly trackId: number;
  readonly raceNr: number;
  /** The race's phase now. */
  readonly phase: Phase;
  /** The day's local time asked for, and the one reached (the clock moves in whole ms). */
  readonly target: string;
  readonly dayTime: string;
  /** How far this simulator's clock moved. */
  readonly advancedMs: number;
  /** Messages played on the way. */
  readonly played: number;
  readonly allowed: readonly string[];
}
