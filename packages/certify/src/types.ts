/**
 * The shapes of a certification: what the client did as the certify server saw it (traffic),
 * what a scenario is given to drive the simulator and read that traffic, and what it grades.
 * The runner, the suites and the reports all meet here; nothing here runs anything.
 */

/** The four consumer suites, one a transport; `all` runs them one after another. */
export type Suite = 'events' | 'stream' | 'listen' | 'stomp';
export const SUITES: readonly Suite[] = ['events', 'stream', 'listen', 'stomp'];

export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

/** One observation that decided a check, in words a developer reads in a report. */
export interface Evidence {
  /** ISO time of the observation. */
  readonly at: string;
  /** e.g. `GET /customerapi/events?lastEventId=12 -> 200 (31 ms)` or `session closed 4001`. */
  readonly what: string;
}

export interface CheckResult {
  readonly id: string;
  readonly status: CheckStatus;
  /** A failed required check fails the run unless it is an expected failure. */
  readonly required: boolean;
  /** One line: what the client did, or did not do. */
  readonly summary: string;
  readonly evidence: readonly Evidence[];
  /** A failure listed in --expected-failures: reported, but it does not fail the run. */
  readonly expectedFailure?: boolean;
}

/** The JSON report (`--report FILE`), and what `certify()` in the test kit resolves to. */
export interface Report {
  /** The suite given (`all` when all four ran). */
  readonly suite: Suite | 'all';
  /** The client command line as given (or `attached` with --attach). */
  readonly command: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly checks: readonly CheckResult[];
  readonly passed: number;
  /** Required checks that failed and were not expected to. */
  readonly failed: number;
  /** Why the run ended early, when it did: `client exited with code 1 after 812 ms`... */
  readonly aborted?: string;
  /**
   * Traffic that was not the certified client's (--attach: another process on the port), when
   * there was some: how much, and the first requests described. Never part of a check.
   */
  readonly foreign?: { readonly count: number; readonly sample: readonly Evidence[] };
}

/** How a request or upgrade authenticated, never the credential itself. */
export type AuthScheme = 'bearer' | 'basic' | 'none' | 'other';

/**
 * What the certify server saw, in order. Times are ms since the epoch on the real clock (the
 * client runs in real time). No event holds a token, key or secret.
 */
export type TrafficEvent =
  | {
      readonly kind: 'request';
      readonly at: number;
      /** When the answer was finished or the client left. */
      readonly endedAt: number;
      readonly method: string;
      /** Without the query. */
      readonly path: string;
      /** The query parameters (lastEventId, limit, ...); never a credential. */
      readonly query: Readonly<Record<string, string>>;
      readonly auth: AuthScheme;
      /** The user the credential named, when it named a known one. */
      readonly user?: string;
      /** The status answered, or `aborted` when the client left first. */
      readonly status: number | 'aborted';
      /**
       * What a 200 of the long-poll routes carried: the eventIds of a JSON events page (in order)
       * and whether it said hasMore; for a legacy listen answer, one message (eventIds empty).
       */
      readonly answered?: {
        readonly messages: number;
        readonly eventIds: readonly number[];
        readonly hasMore?: boolean;
      };
    }
  | {
      readonly kind: 'upgrade';
      readonly at: number;
      readonly path: string;
      readonly auth: AuthScheme;
      readonly user?: string;
    }
  | {
      readonly kind: 'session-open';
      readonly at: number;
      readonly user: string;
      readonly transport: string;
    }
  | {
      /**
       * A STOMP session's CONNECT was answered: what it negotiated (STOMP 1.2 "Heart-beating";
       * 0 = none either way, as on STOMP 1.0). Comes after its `session-open`.
       */
      readonly kind: 'stomp-connected';
      readonly at: number;
      readonly user: string;
      /** The STOMP version agreed: `1.0`, `1.1` or `1.2`. */
      readonly version: string;
      /** How often the client promised to send something; the server closes (1008) a session silent for twice that. */
      readonly expectEveryMs: number;
      /** How often the server sends a heart-beat to the client. */
      readonly sendEveryMs: number;
    }
  | {
      readonly kind: 'session-closed';
      readonly at: number;
      readonly user: string;
      readonly transport: string;
      readonly code: number;
    }
  /** A line the client printed on stdout (with `--echo stdout`): the id or payloadKey it processed. */
  | { readonly kind: 'client-line'; readonly at: number; readonly line: string }
  | {
      readonly kind: 'client-exit';
      readonly at: number;
      readonly code: number | null;
      readonly signal: string | null;
    };

export type TrafficKind = TrafficEvent['kind'];
export type TrafficOf<K extends TrafficKind> = Extract<TrafficEvent, { kind: K }>;

/** The traffic log a scenario reads: everything so far, and what comes next. */
export interface Traffic {
  /** Every event so far, oldest first (bounded: the oldest go first past a cap). */
  all(): readonly TrafficEvent[];
  /** Events of a kind at or after `since` (ms since the epoch). */
  of<K extends TrafficKind>(kind: K, since?: number): ReadonlyArray<TrafficOf<K>>;
  /**
   * Resolves with the first event from now on (or already at or after `since`) that passes
   * `test`, or undefined after `timeoutMs` or once the run is stopped. Never rejects.
   */
  next<K extends TrafficKind>(
    kind: K,
    test: (event: TrafficOf<K>) => boolean,
    options: { readonly timeoutMs: number; readonly since?: number },
  ): Promise<TrafficOf<K> | undefined>;
}

/**
 * The simulator's timings during a certification: short, so each suite runs in under a minute,
 * and printed at start so a client's own timeouts can be set to match.
 */
export interface CertifyTimings {
  /** LONG_POLL_TIMEOUT_MS: a held poll is answered 204 after this. */
  readonly longPollTimeoutMs: number;
  /** WS_PING_INTERVAL_MS: Pings on the event stream. */
  readonly pingIntervalMs: number;
  /** WS_AUTH_TIMEOUT_MS: how long the event stream waits for the token. */
  readonly authTimeoutMs: number;
  /** TOKEN_TTL_SECONDS (jwt tokens). */
  readonly tokenTtlSeconds: number;
  /** STOMP heart-beats the server offers (send and receive), ms. */
  readonly stompHeartBeatMs: number;
}

/** A control plane call failed: the scenario reports it as the check's failure, not a crash. */
export interface ControlCalls {
  /** POST /api/message (JSON): a durable or transient message; resolves with its eventId, if durable. */
  postJson(message: Record<string, unknown>): Promise<{ eventId?: number }>;
  /** POST /customerapi/channel/{channel}/{Durable|NonDurable} (legacy). */
  inject(channel: string, durable: boolean, xml: string, payloadKey?: string): Promise<void>;
  /** POST /_sim/faults; resolves with the rule id. */
  addFault(rule: Record<string, unknown>): Promise<string>;
  deleteFault(id: string): Promise<void>;
  /** GET /_sim/faults: how often a rule fired so far; undefined once it is gone. */
  faultFired(id: string): Promise<number | undefined>;
  /** POST /_sim/tokens/expire for the certified user. */
  expireTokens(): Promise<void>;
  /** POST /_sim/connections/close for the certified user, with a close code. */
  closeConnections(code?: number): Promise<number>;
  /** GET /_sim/journal with a query string (`kind=delivered&user=...`). */
  journal(query: string): Promise<ReadonlyArray<Record<string, unknown>>>;
}

/** A change to the text frames the simulator sends the client over WebSocket. */
export interface FrameChange {
  readonly test: (text: string) => boolean;
  readonly change: (text: string) => string;
  /** Told each time a frame was changed, with when (ms since the epoch). */
  readonly changed?: (at: number) => void;
}

/** A change to the JSON bodies (200 only) the simulator answers the client with on one route. */
export interface AnswerChange {
  /** The route, lower case and without a trailing slash: `/customerapi/events`. */
  readonly path: string;
  readonly test: (body: unknown) => boolean;
  readonly change: (body: unknown) => unknown;
  readonly changed?: (at: number) => void;
}

/** How long the simulator is away (survives-restart), in its two halves. */
export interface OutagePlan {
  /** Nothing listens on the port: a connection attempt is refused (ECONNREFUSED). */
  readonly refusedMs: number;
  /**
   * The port accepts connections again and closes each at once without an answer, as a port
   * proxy does while the server behind it starts (the client sees a reset or an empty reply).
   * These attempts are counted; a refused one never reaches certify.
   */
  readonly closingMs: number;
}

export interface OutageOutcome {
  /** When every connection was dropped and the port closed. */
  readonly downAt: number;
  /** When the port accepted connections again (to close them). */
  readonly closingAt?: number;
  /** When the simulator answered again; undefined when it did not (the run stopped, the port was lost). */
  readonly backAt?: number;
  /** Connections dropped when it went away. */
  readonly dropped: number;
  /** When each connection attempt of the closing half came (ms since the epoch). */
  readonly attempts: readonly number[];
  /** With --attach: attempts of the closing half that were not the client's (not in `attempts`). */
  readonly foreign?: number;
  /** Why it did not come back, when the port could not be taken back. */
  readonly error?: string;
}

/** A WebSocket session certify silenced, and what the simulator last sent it. */
export interface SilencedSession {
  readonly path: string;
  /** When the simulator last sent it a frame (ms since the epoch), if ever. */
  readonly lastFrameAt: number | undefined;
  /** How that frame began (`{"type":"Ping",...`, or `\n` for a STOMP heart-beat). */
  readonly lastFrame: string | undefined;
}

/**
 * What certify's own server does to the client's connections on top of the simulator: the ways
 * production fails that the simulator itself never shows (a connection gone silent, a server
 * away, messages of a kind the simulator never sends).
 */
export interface FrontDoor {
  /** Silences the client's open WebSocket sessions on these paths: nothing more reaches them. */
  silence(paths: readonly string[]): SilencedSession[];
  /** Sends a text frame of certify's own to each open, unsilenced session on these paths; how many. */
  inject(paths: readonly string[], text: string): number;
  /** Changes frames until the returned function is called. */
  changeFrames(change: FrameChange): () => void;
  /** Changes answers until the returned function is called. */
  changeAnswers(change: AnswerChange): () => void;
  /** The simulator goes away and comes back with its state; `signal` ends it early. */
  outage(plan: OutagePlan, signal: AbortSignal): Promise<OutageOutcome>;
}

/** What a scenario is given. */
export interface ScenarioContext {
  readonly suite: Suite;
  /** HTTP base of the simulator under certification (RACEDATA_URL). */
  readonly base: string;
  /** WebSocket base (RACEDATA_WS_URL). */
  readonly wsBase: string;
  /** The certified user: the client authenticates as it. */
  readonly user: { readonly key: string; readonly secret: string };
  readonly timings: CertifyTimings;
  readonly traffic: Traffic;
  readonly control: ControlCalls;
  readonly frontDoor: FrontDoor;
  /** Real time, ms since the epoch. */
  now(): number;
  /** Waits real time; resolves early (false) once the run is stopped. */
  wait(ms: number): Promise<boolean>;
  /** Whether the client echoes what it processed (`--echo stdout`). */
  readonly echo: boolean;
  readonly signal: AbortSignal;
}

/** A check as docs/certify.md lists it: its id and the rule of the interface it comes from. */
export interface CheckInfo {
  readonly id: string;
  readonly required: boolean;
  /** One line: what the client must do. */
  readonly rule: string;
  /** Where the rule comes from, e.g. `interface 4.3: "the client immediately sends a new request"`. */
  readonly source: string;
}

/**
 * A scenario plays one situation against the running client and grades the checks it decides.
 * It returns a result for each of its checks (skip with a reason where it cannot decide).
 */
export interface Scenario {
  readonly name: string;
  readonly checks: readonly CheckInfo[];
  /**
   * The client ending is what this scenario grades (it exits on a refused connection, or on a
   * message it does not know): it is given a moment to say so before the run is stopped.
   */
  readonly gradesClientExit?: boolean;
  run(ctx: ScenarioContext): Promise<readonly CheckResult[]>;
}

export interface SuiteDefinition {
  readonly suite: Suite;
  /** The simulator the suite certifies against. */
  readonly simulator: 'json' | 'legacy';
  /** Played one after another while the client runs, in this order. */
  readonly scenarios: readonly Scenario[];
}
