import {
  loadTables,
  recordingsForReplay,
  resolveSettings,
  silentLogger,
  type Logger,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import type { Simulator } from '@racedata/control';
import { createJsonSimulator, JSON_DESCRIPTION } from '@racedata/json-sim';
import { createLegacySimulator, LEGACY_DESCRIPTION } from '@racedata/legacy-sim';
import { playRequestFromSettings, RaceDay } from '@racedata/race-day/player';
import { bundledRecordingsDir } from './bundled-recordings';
import type { ControlClientOptions, Sandbox } from './control-client';
import { controlPair, type ControlPair, type SandboxPair } from './control-pair';
import type { SandboxOptions, SimulatorUser } from './control-types';
import { JsonControlClient } from './json-control-client';
import { LegacyControlClient } from './legacy-control-client';
import { RACEDATA_SIM_VERSION } from './version';

/** `false` leaves a simulator out; `true` or settings start it (settings win over `settings`). */
export type SimulatorChoice = boolean | Partial<SimulatorSettings>;

/** Replay of recorded race days, as AUTO_REPLAY_MESSAGE_INTERVAL / MAX_DELAY would set it up. */
export interface ReplayOptions {
  /** A directory with json/ and legacy/ recordings (recordings/README.md); default: the bundled ones. */
  readonly recordingsDir?: string;
  /** One message every this many ms; the default (1000) unless maxDelayMs is given. */
  readonly intervalMs?: number;
  /** The recorded gaps, each capped at this many ms, when no intervalMs is given. */
  readonly maxDelayMs?: number;
  /** ms before the first message (default: the interval). */
  readonly initialDelayMs?: number;
  /** Shift the recorded race dates so the recording happens today. */
  readonly rebaseDates?: boolean;
}

export interface StartOptions {
  /** The JSON simulator (port 3000 in production): started unless `false`. */
  readonly json?: SimulatorChoice;
  /** The legacy simulator (port 8080 in production): started unless `false`. */
  readonly legacy?: SimulatorChoice;
  /** Settings both simulators get, e.g. `{ controlToken, longPollTimeoutMs }`. */
  readonly settings?: Partial<SimulatorSettings>;
  /** `true` replays the recordings one message a second; off by default. */
  readonly replay?: boolean | ReplayOptions;
  /** Listen address (default 127.0.0.1); the port is 0 (a free one) unless settings name one. */
  readonly host?: string;
  /** Where the simulators log; silent by default. */
  readonly logger?: Logger;
  /** Passed to the control clients (a request timeout, another fetch). */
  readonly client?: Omit<ControlClientOptions, 'token'>;
}

/** startSimulators() without options: both simulators, so both URLs are strings. */
type NoOptions = Record<never, never>;

/** Whether a choice starts its simulator: `boolean` when the caller's own flag is not a literal. */
type IsOn<C> = C extends false ? false : true;

/** What exists when a simulator runs, else undefined (both when the flag is not a literal). */
type If<On extends boolean, T> = On extends true ? T : undefined;

/** `control` is a ControlPair when both run, else the one simulator's client. */
type ControlOf<J extends boolean, L extends boolean> = [J, L] extends [true, true]
  ? ControlPair
  : [J, L] extends [true, false]
    ? JsonControlClient
    : [J, L] extends [false, true]
      ? LegacyControlClient
      : ControlPair | JsonControlClient | LegacyControlClient;

/** `sandbox()` makes one in each running simulator. */
type SandboxOf<J extends boolean, L extends boolean> = [J, L] extends [true, true]
  ? SandboxPair
  : [J, L] extends [true, false]
    ? Sandbox<JsonControlClient>
    : [J, L] extends [false, true]
      ? Sandbox<LegacyControlClient>
      : SandboxPair | Sandbox<JsonControlClient> | Sandbox<LegacyControlClient>;

/**
 * Simulators listening on free loopback ports in this process. `RunningSimulators` alone is
 * both simulators, as `startSimulators()` starts them by default; a simulator left out with a
 * literal `false` has `undefined` URLs, users and client, and the types say so.
 */
export interface RunningSimulators<J extends boolean = true, L extends boolean = true> {
  /** `http://127.0.0.1:<port>` of the JSON simulator. */
  readonly jsonUrl: If<J, string>;
  /** `http://127.0.0.1:<port>` of the legacy simulator. */
  readonly legacyUrl: If<L, string>;
  /** The JSON event stream: `ws://127.0.0.1:<port>/customerapi/event-stream`. */
  readonly eventStreamUrl: If<J, string>;
  /** The legacy STOMP endpoint: `ws://127.0.0.1:<port>/api/v1/channels/connect`. */
  readonly stompUrl: If<L, string>;
  /** Each simulator's users with key, secret, fixed token and channels (USERS_FILE or built in). */
  readonly users: {
    readonly json: If<J, readonly SimulatorUser[]>;
    readonly legacy: If<L, readonly SimulatorUser[]>;
  };
  /** The JSON simulator's control client (with the control token, if one was set). */
  readonly json: If<J, JsonControlClient>;
  readonly legacy: If<L, LegacyControlClient>;
  /** Both simulators' control planes at once, or the only simulator's client. */
  readonly control: ControlOf<J, L>;
  /** A sandbox in each running simulator (POST /_sim/sandboxes); close() frees it. */
  sandbox(options?: SandboxOptions): Promise<SandboxOf<J, L>>;
  /** Closes both (held polls answered, sockets closed, ports freed); safe to call again. */
  close(): Promise<void>;
}

interface Started {
  readonly kind: SimulatorKind;
  readonly sim: Simulator;
  readonly users: readonly SimulatorUser[];
  url?: string;
}

/**
 * Starts the JSON and/or legacy simulator in this process on free ports of 127.0.0.1: no child
 * process, no fixed port and nothing shared, so several can run side by side in one test run.
 * examples/jest/start-simulators.test.ts shows it in a suite.
 */
export async function startSimulators<const O extends StartOptions = NoOptions>(
  options?: O,
): Promise<RunningSimulators<IsOn<O['json']>, IsOn<O['legacy']>>>;
export async function startSimulators(
  options: StartOptions = {},
): Promise<RunningSimulators<boolean, boolean>> {
  const kinds = (['json', 'legacy'] as const).filter((kind) => options[kind] !== false);
  if (kinds.length === 0) throw new TypeError('startSimulators: json and legacy are both false');
  const host = options.host ?? '127.0.0.1';
  const started: Started[] = [];
  try {
    const raceDay = sharedRaceDay(kinds, options);
    // Built first, listening after: a bad users file or recording stops the start before any port opens.
    for (const kind of kinds) started.push({ kind, ...(await build(kind, options, raceDay)) });
    for (const entry of started) {
      const port = settingsOf(entry.kind, options).port ?? 0;
      const address = await entry.sim.listen(port, host);
      entry.url = `http://${urlHost(host)}:${address.port}`;
    }
  } catch (err) {
    await Promise.all(started.map((entry) => entry.sim.close()));
    throw err;
  }
  const entry = (kind: SimulatorKind) => started.find((one) => one.kind === kind);
  const clientOptions = (kind: SimulatorKind): ControlClientOptions => {
    const token = settingsOf(kind, options).controlToken;
    return { ...options.client, ...(token && { token }) };
  };
  const jsonUrl = entry('json')?.url;
  const legacyUrl = entry('legacy')?.url;
  const json = jsonUrl === undefined ? undefined : new JsonControlClient(jsonUrl, clientOptions('json'));
  const legacy =
    legacyUrl === undefined ? undefined : new LegacyControlClient(legacyUrl, clientOptions('legacy'));
  const control = json && legacy ? controlPair(json, legacy) : (json ?? legacy);
  let closing: Promise<void> | undefined;
  return {
    jsonUrl,
    legacyUrl,
    eventStreamUrl: json?.eventStreamUrl,
    stompUrl: legacy?.stompUrl,
    users: { json: entry('json')?.users, legacy: entry('legacy')?.users },
    json,
    legacy,
    control: control as ControlPair | JsonControlClient | LegacyControlClient,
    sandbox: (sandboxOptions) =>
      (control as ControlPair | JsonControlClient | LegacyControlClient).sandbox(sandboxOptions),
    close: () => {
      closing ??= Promise.all(started.map((one) => one.sim.close())).then(() => undefined);
      return closing;
    },
  };
}

const RACE_DAY_KEYS = [
  'raceDay',
  'raceDaySpeed',
  'raceDaySeed',
  'raceDayEdgeCases',
  'raceDayMeetings',
  'raceDayAt',
] as const;

/**
 * One race day for both simulators when they are asked for the same one, as `racedata-sim all`
 * plays it: they stay in step, and POST /_sim/race-day on either restarts both.
 */
function sharedRaceDay(kinds: readonly SimulatorKind[], options: StartOptions): RaceDay | undefined {
  if (kinds.length < 2) return undefined;
  const [json, legacy] = kinds.map((kind) => resolveSettings(kind, settingsOf(kind, options)));
  if (RACE_DAY_KEYS.some((key) => json![key] !== legacy![key])) return undefined;
  const day = new RaceDay();
  const request = playRequestFromSettings(json!, Date.now());
  if (request) day.start(request, Date.now());
  return day;
}

/** The caller's settings for one simulator: shared ones, replay, then the simulator's own. */
function settingsOf(kind: SimulatorKind, options: StartOptions): Partial<SimulatorSettings> {
  const own = options[kind];
  return { ...options.settings, ...replaySettings(options.replay), ...(typeof own === 'object' && own) };
}

function replaySettings(replay: StartOptions['replay']): Partial<SimulatorSettings> {
  if (replay === undefined || replay === false) return {};
  const options: ReplayOptions = replay === true ? {} : replay;
  const timed = options.intervalMs === undefined && options.maxDelayMs !== undefined;
  return {
    ...(timed ? { maxDelayMs: options.maxDelayMs } : { autoReplayIntervalMs: options.intervalMs ?? 1000 }),
    ...(options.initialDelayMs !== undefined && { initialDelayMs: options.initialDelayMs }),
    ...(options.rebaseDates !== undefined && { replayRebaseDates: options.rebaseDates }),
    ...(options.recordingsDir !== undefined && { recordingsDir: options.recordingsDir }),
  };
}

/**
 * The simulator with its tables and, when replay is on, its recordings, as the CLI builds it,
 * and its users as GET /_sim/users lists them (read here, so they exist with CONTROL_API=off).
 */
async function build(
  kind: SimulatorKind,
  options: StartOptions,
  raceDay: RaceDay | undefined,
): Promise<{ sim: Simulator; users: SimulatorUser[] }> {
  const settings = resolveSettings(kind, settingsOf(kind, options));
  const logger = options.logger?.child({ sim: kind }) ?? silentLogger();
  const tables = loadTables(kind === 'json' ? JSON_DESCRIPTION : LEGACY_DESCRIPTION, settings);
  const users = tables.users.users.map((u) => ({
    key: u.key,
    name: u.name,
    secret: u.secret,
    token: u.token,
    channels: [...u.channels],
  }));
  const dir = bundledRecordingsDir();
  if (kind === 'json') {
    const recordings = await recordingsForReplay('json', settings, tables.catalog, logger, dir);
    return {
      sim: createJsonSimulator(settings, {
        ...tables,
        logger,
        version: RACEDATA_SIM_VERSION,
        ...(raceDay && { raceDay }),
        ...(recordings && { recordings }),
      }),
      users,
    };
  }
  const recordings = await recordingsForReplay('legacy', settings, tables.catalog, logger, dir);
  return {
    sim: createLegacySimulator(settings, {
      ...tables,
      logger,
      version: RACEDATA_SIM_VERSION,
      ...(raceDay && { raceDay }),
      ...(recordings && { recordings }),
    }),
    users,
  };
}

/** A URL host for a listen address: brackets for IPv6, loopback for a wildcard. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
