import { parseAllowedHosts } from './allowed-hosts';
import { CONTROL_LIMIT_SETTINGS, type ControlLimitSettings } from './control-limit-settings';
import type { SimulatorKind } from './description';
import { LOG_FORMAT_OPTION, LOG_LEVEL_OPTION, LOG_REQUESTS_OPTION } from './log-settings';
import type { LogFormat, LogLevel } from './logger';
import { always, parseBoolean, parseInteger, parseOneOf, parseText, type OptionSpec } from './option-parsers';
import { RACE_DAY_SETTINGS, type RaceDaySettings } from './race-day-settings';

export const TOKEN_MODES = ['fixed', 'jwt'] as const;
export type TokenMode = (typeof TOKEN_MODES)[number];
export const CONTROL_API_MODES = ['on', 'off'] as const;
export type ControlApiMode = (typeof CONTROL_API_MODES)[number];

/** Every setting of a simulator, parsed and validated; defaults in docs/configuration.md. */
export interface SimulatorSettings extends ControlLimitSettings, RaceDaySettings {
  readonly port: number;
  readonly host: string;
  readonly longPollTimeoutMs: number;
  readonly wsAuthTimeoutMs: number;
  readonly wsPingIntervalMs: number;
  readonly tokenMode: TokenMode;
  readonly tokenTtlSeconds: number;
  /** HS256 key for jwt mode; a random one per process when not given. */
  readonly jwtSecret: string | undefined;
  readonly usersFile: string | undefined;
  readonly channelsFile: string | undefined;
  readonly recordingsDir: string | undefined;
  readonly autoReplayIntervalMs: number | undefined;
  readonly initialDelayMs: number | undefined;
  readonly maxDelayMs: number | undefined;
  readonly replayRebaseDates: boolean;
  readonly eventsDefaultLimit: number;
  readonly eventsMaxLimit: number;
  readonly eventStoreMax: number;
  readonly eventStoreMaxBytes: number;
  readonly legacyQueueRetentionMs: number;
  readonly legacyQueueMax: number;
  readonly legacyQueueMaxBytes: number;
  readonly maxBodyBytes: number;
  /** Largest NDJSON body of POST /_sim/events (JSON simulator), held until all of it is valid. */
  readonly seedMaxBodyBytes: number;
  readonly wsMaxBufferedBytes: number;
  /** 0 turns Node's limit off; at most httpRequestTimeoutMs when both are on. */
  readonly httpHeadersTimeoutMs: number;
  /** Time to receive a whole request (head and body), not to answer it: long polls are safe. */
  readonly httpRequestTimeoutMs: number;
  readonly maxInflightBodyBytes: number;
  readonly stompMaxFrameBytes: number;
  readonly stompMaxSubscriptions: number;
  readonly wsMaxSessionsPerUser: number;
  /** Entries the control plane's delivery journal keeps (oldest dropped first). */
  readonly journalMax: number;
  /** `off` answers every /_sim/* path 404. */
  readonly controlApi: ControlApiMode;
  /** When set, /_sim/* requests need `Authorization: Bearer <it>`. */
  readonly controlToken: string | undefined;
  /**
   * Host names /_sim/* answers to besides localhost and IP addresses (a guard against DNS
   * rebinding); `['*']` takes any.
   */
  readonly controlAllowedHosts: readonly string[];
  /** Sandboxes (POST /_sim/sandboxes) that may exist at once; 0 turns them off. */
  readonly sandboxMax: number;
  /** A sandbox with no request and nothing open for this long is deleted. */
  readonly sandboxIdleMs: number;
  readonly logLevel: LogLevel;
  /** Read by the CLI only, which prints the logs; `auto` until it looks at stderr. */
  readonly logFormat: LogFormat;
  /** One info line per request, per WebSocket/STOMP session open and close, and per STOMP CONNECT. */
  readonly logRequests: boolean;
}

export type SettingKey = keyof SimulatorSettings;

/** One row of the settings table; the default may depend on the simulator kind. */
export type SettingSpec = OptionSpec<SettingKey, SimulatorKind>;

// Node fires a timer longer than 2^31-1 ms after 1 ms, so anything handed to a timer stops there.
export const MAX_TIMER_MS = 2_147_483_647;
const MS = parseInteger(0, MAX_TIMER_MS);
const POSITIVE_MS = parseInteger(1, MAX_TIMER_MS);

export const SETTINGS: readonly SettingSpec[] = [
  {
    key: 'port',
    flag: '--port',
    env: 'PORT',
    description: 'listen port',
    defaultFor: (kind) => (kind === 'legacy' ? '8080' : '3000'),
    parse: parseInteger(0, 65535),
  },
  {
    key: 'host',
    flag: '--host',
    env: 'HOST',
    description:
      'listen address: 127.0.0.1 is this machine only; 0.0.0.0 opens the simulator, control plane included, to the network (the images set it)',
    defaultFor: always('127.0.0.1'),
    parse: parseText,
  },
  {
    key: 'longPollTimeoutMs',
    flag: '--long-poll-timeout',
    env: 'LONG_POLL_TIMEOUT_MS',
    description: 'ms a long poll is held before 204',
    defaultFor: always('60000'),
    parse: POSITIVE_MS,
  },
  {
    key: 'wsAuthTimeoutMs',
    flag: '--ws-auth-timeout',
    env: 'WS_AUTH_TIMEOUT_MS',
    description: 'ms a WebSocket client has to send its token',
    defaultFor: always('10000'),
    parse: POSITIVE_MS,
  },
  {
    key: 'wsPingIntervalMs',
    flag: '--ws-ping-interval',
    env: 'WS_PING_INTERVAL_MS',
    description: 'ms between Ping messages on the event stream',
    defaultFor: always('60000'),
    parse: POSITIVE_MS,
  },
  {
    key: 'tokenMode',
    flag: '--token-mode',
    env: 'TOKEN_MODE',
    description: 'fixed tokens only, or also issue real HS256 JWTs',
    defaultFor: always('fixed'),
    parse: parseOneOf(TOKEN_MODES),
    choices: TOKEN_MODES,
  },
  {
    key: 'tokenTtlSeconds',
    flag: '--token-ttl',
    env: 'TOKEN_TTL_SECONDS',
    description: 'lifetime of issued JWTs in seconds (jwt mode)',
    defaultFor: always('86400'),
    parse: parseInteger(1),
  },
  {
    key: 'jwtSecret',
    flag: '--jwt-secret',
    env: 'JWT_SECRET',
    description: 'HS256 signing key for jwt mode (random per start when unset)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'usersFile',
    flag: '--users',
    env: 'USERS_FILE',
    description: 'JSON file replacing the built-in users',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'channelsFile',
    flag: '--channels',
    env: 'CHANNELS_FILE',
    description: 'JSON file replacing the built-in channel catalog',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'recordingsDir',
    flag: '--recordings',
    env: 'RECORDINGS_DIR',
    description: 'directory of recordings for replay',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'autoReplayIntervalMs',
    flag: '--auto-replay-interval',
    env: 'AUTO_REPLAY_MESSAGE_INTERVAL',
    description: 'replay one recorded message every this many ms (off when unset)',
    defaultFor: always(undefined),
    parse: POSITIVE_MS,
  },
  {
    key: 'initialDelayMs',
    flag: '--initial-delay',
    env: 'INITIAL_DELAY',
    description: 'ms before the first replayed message (default: the interval)',
    defaultFor: always(undefined),
    parse: MS,
  },
  {
    key: 'maxDelayMs',
    flag: '--max-delay',
    env: 'MAX_DELAY',
    description: 'timed replay: recorded gaps, each capped at this many ms (used when no interval is set)',
    defaultFor: always(undefined),
    parse: MS,
  },
  {
    key: 'replayRebaseDates',
    flag: '--rebase-dates',
    env: 'REPLAY_REBASE_DATES',
    description: 'shift recorded race dates so the recording happens today',
    defaultFor: always('false'),
    parse: parseBoolean,
    boolean: true,
  },
  ...(RACE_DAY_SETTINGS as readonly SettingSpec[]),
  {
    key: 'eventsDefaultLimit',
    flag: undefined,
    env: 'EVENTS_DEFAULT_LIMIT',
    description: 'events per page when limit is omitted or 0',
    defaultFor: always('100'),
    parse: parseInteger(1),
  },
  {
    key: 'eventsMaxLimit',
    flag: undefined,
    env: 'EVENTS_MAX_LIMIT',
    description: 'largest page; bigger limits are clamped',
    defaultFor: always('10000'),
    parse: parseInteger(1),
  },
  {
    key: 'eventStoreMax',
    flag: undefined,
    env: 'EVENT_STORE_MAX',
    description: 'durable events kept (oldest dropped first)',
    defaultFor: always('1000000'),
    parse: parseInteger(1),
  },
  {
    key: 'eventStoreMaxBytes',
    flag: undefined,
    env: 'EVENT_STORE_MAX_BYTES',
    description:
      'memory budget for durable events, each counted as its JSON size + 200 (oldest dropped first)',
    defaultFor: always(String(256 * 1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'legacyQueueRetentionMs',
    flag: undefined,
    env: 'LEGACY_QUEUE_RETENTION_MS',
    description: 'how long a queued legacy message is kept',
    defaultFor: always('86400000'),
    parse: parseInteger(1),
  },
  {
    key: 'legacyQueueMax',
    flag: undefined,
    env: 'LEGACY_QUEUE_MAX',
    description: 'queued legacy messages kept per user (oldest dropped first)',
    defaultFor: always('10000'),
    parse: parseInteger(1),
  },
  {
    key: 'legacyQueueMaxBytes',
    flag: undefined,
    env: 'LEGACY_QUEUE_MAX_BYTES',
    description: 'UTF-8 bytes of queued legacy messages kept across all users (oldest dropped first)',
    defaultFor: always(String(128 * 1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'maxBodyBytes',
    flag: undefined,
    env: 'MAX_BODY_BYTES',
    description: 'largest accepted request body (413 above)',
    defaultFor: always(String(1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'seedMaxBodyBytes',
    flag: undefined,
    env: 'SEED_MAX_BODY_BYTES',
    description: 'largest NDJSON body of POST /_sim/events, the bulk seeding of the JSON store (413 above)',
    defaultFor: always(String(512 * 1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'wsMaxBufferedBytes',
    flag: undefined,
    env: 'WS_MAX_BUFFERED_BYTES',
    description: 'unsent bytes a slow WebSocket client may build up before it is dropped',
    defaultFor: always(String(4 * 1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'httpHeadersTimeoutMs',
    flag: undefined,
    env: 'HTTP_HEADERS_TIMEOUT_MS',
    description: 'ms a client has to send a request head (408 after; 0 = no limit)',
    defaultFor: always('10000'),
    parse: MS,
  },
  {
    key: 'httpRequestTimeoutMs',
    flag: undefined,
    env: 'HTTP_REQUEST_TIMEOUT_MS',
    description: 'ms a client has to send a whole request, body included (408 after; 0 = no limit)',
    defaultFor: always('30000'),
    parse: MS,
  },
  {
    key: 'maxInflightBodyBytes',
    flag: undefined,
    env: 'MAX_INFLIGHT_BODY_BYTES',
    description: 'request body bytes received at once over all clients (503 with Retry-After above)',
    defaultFor: always(String(64 * 1024 * 1024)),
    parse: parseInteger(1),
  },
  {
    key: 'stompMaxFrameBytes',
    flag: undefined,
    env: 'STOMP_MAX_FRAME_BYTES',
    description: 'largest STOMP frame a client may send (ERROR and close above)',
    defaultFor: always(String(1024 * 1024)),
    parse: parseInteger(64),
  },
  {
    key: 'stompMaxSubscriptions',
    flag: undefined,
    env: 'STOMP_MAX_SUBSCRIPTIONS',
    description: 'subscriptions one STOMP session may hold (ERROR and close above)',
    defaultFor: always('100'),
    parse: parseInteger(1),
  },
  {
    key: 'wsMaxSessionsPerUser',
    flag: undefined,
    env: 'WS_MAX_SESSIONS_PER_USER',
    description: 'STOMP or event-stream connections one user may hold open at once',
    defaultFor: always('100'),
    parse: parseInteger(1),
  },
  {
    key: 'journalMax',
    flag: undefined,
    env: 'JOURNAL_MAX',
    description: 'entries the /_sim/journal delivery journal keeps (oldest dropped first)',
    defaultFor: always('10000'),
    parse: parseInteger(1),
  },
  ...CONTROL_LIMIT_SETTINGS,
  {
    key: 'controlApi',
    flag: undefined,
    env: 'CONTROL_API',
    description:
      'the /_sim/* control plane and /metrics (state, reset, journal, faults, clock); off answers 404',
    defaultFor: always('on'),
    parse: parseOneOf(CONTROL_API_MODES),
    choices: CONTROL_API_MODES,
  },
  {
    key: 'controlToken',
    flag: undefined,
    env: 'CONTROL_TOKEN',
    description: 'when set, /_sim/* requests need Authorization: Bearer <this token>',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'controlAllowedHosts',
    flag: '--control-allowed-hosts',
    env: 'CONTROL_ALLOWED_HOSTS',
    description:
      'host names /_sim/* answers to, besides IP addresses and localhost (comma list; .domain for names under it; * for any; 403 otherwise)',
    defaultFor: always('localhost'),
    parse: parseAllowedHosts,
  },
  {
    key: 'sandboxMax',
    flag: undefined,
    env: 'SANDBOX_MAX',
    description: 'isolated sandboxes POST /_sim/sandboxes may create at once (429 above; 0 = none)',
    defaultFor: always('100'),
    parse: parseInteger(0, 10_000),
  },
  {
    key: 'sandboxIdleMs',
    flag: undefined,
    env: 'SANDBOX_IDLE_MS',
    description: 'ms a sandbox may go without a request (and with nothing open) before it is deleted',
    defaultFor: always('900000'),
    parse: POSITIVE_MS,
  },
  LOG_LEVEL_OPTION,
  LOG_FORMAT_OPTION,
  LOG_REQUESTS_OPTION,
];
