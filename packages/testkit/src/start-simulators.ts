import {
  loadTables,
  recordingsForReplay,
  resolveSettings,
  silentLogger,
  type Logger,
  type Simulator,
  type SimulatorKind,
  type SimulatorSettings,
} from '@racedata/core';
import { createJsonSimulator } from '@racedata/json-sim';
import { createLegacySimulator } from '@racedata/legacy-sim';
import { bundledRecordingsDir } from './bundled-recordings';
import { ControlClient, type ControlClientOptions } from './control-client';
import { controlPair, type ControlPair } from './control-pair';

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

/** `control` is a ControlPair when both run, else the one simulator's client. */
type ControlOf<J extends boolean, L extends boolean> = [J, L] extends [true, true]
  ? ControlPair
  : [J, L] extends [true, false] | [false, true]
    ? ControlClient
    : ControlPair | ControlClient;

/**
 * Simulators listening on free loopback ports in this process. A simulator left out with
 * `false` has `undefined` URL and client (the types say so when the flag is a literal).
 */
export interface RunningSimulators<J extends boolean = boolean, L extends boolean = boolean> {
  /** `http://127.0.0.1:<port>` of the JSON simulator; its WebSocket is `ws://…/customerapi/event-stream`. */
  readonly jsonUrl: J extends true ? string : undefined;
  /** `http://127.0.0.1:<port>` of the legacy simulator; STOMP is `ws://…/api/v1/channels/connect`. */
  readonly legacyUrl: L extends true ? string : undefined;
  /** The JSON simulator's control client (with the control token, if one was set). */
  readonly json: J extends true ? ControlClient : undefined;
  readonly legacy: L extends true ? ControlClient : undefined;
  /** Both simulators' control planes at once, or the only simulator's client. */
  readonly control: ControlOf<J, L>;
  /** Closes both (held polls answered, sockets closed, ports freed); safe to call again. */
  close(): Promise<void>;
}

interface Started {
  readonly kind: SimulatorKind;
  readonly sim: Simulator;
  url?: string;
}

/**
 * Starts the JSON and/or legacy simulator in this process on free ports of 127.0.0.1: no child
 * process, no fixed port and nothing shared, so several can run side by side in one test run.
 *
 * ```ts
 * const sims = await startSimulators({ settings: { longPollTimeoutMs: 1000 } });
 * afterAll(() => sims.close());
 * beforeEach(() => sims.control.reset());
 * // point the code under test at sims.jsonUrl / sims.legacyUrl
 * ```
 */
export async function startSimulators<const O extends StartOptions = NoOptions>(
  options?: O,
): Promise<RunningSimulators<IsOn<O['json']>, IsOn<O['legacy']>>>;
export async function startSimulators(options: StartOptions = {}): Promise<RunningSimulators> {
  const kinds = (['json', 'legacy'] as const).filter((kind) => options[kind] !== false);
  if (kinds.length === 0) throw new TypeError('startSimulators: json and legacy are both false');
  const host = options.host ?? '127.0.0.1';
  const started: Started[] = [];
  try {
    // Built first, listening after: a bad users file or recording stops the start before any port opens.
    for (const kind of kinds) started.push({ kind, sim: await build(kind, options) });
    for (const entry of started) {
      const port = settingsOf(entry.kind, options).port ?? 0;
      const address = await entry.sim.listen(port, host);
      entry.url = `http://${urlHost(host)}:${address.port}`;
    }
  } catch (err) {
    await Promise.all(started.map((entry) => entry.sim.close()));
    throw err;
  }
  const clients = new Map(
    started.map((entry) => {
      const token = settingsOf(entry.kind, options).controlToken;
      const client = new ControlClient(entry.url ?? '', { ...options.client, ...(token && { token }) });
      return [entry.kind, client] as const;
    }),
  );
  const url = (kind: SimulatorKind) => started.find((entry) => entry.kind === kind)?.url;
  const json = clients.get('json');
  const legacy = clients.get('legacy');
  let closing: Promise<void> | undefined;
  return {
    jsonUrl: url('json'),
    legacyUrl: url('legacy'),
    json,
    legacy,
    control: json && legacy ? controlPair(json, legacy) : ((json ?? legacy) as ControlClient),
    close: () => {
      closing ??= Promise.all(started.map((entry) => entry.sim.close())).then(() => undefined);
      return closing;
    },
  };
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

/** The simulator with its tables and, when replay is on, its recordings, as the CLI builds it. */
async function build(kind: SimulatorKind, options: StartOptions): Promise<Simulator> {
  const settings = resolveSettings(kind, settingsOf(kind, options));
  const logger = options.logger?.child({ sim: kind }) ?? silentLogger();
  const tables = loadTables(kind, settings);
  const dir = bundledRecordingsDir();
  if (kind === 'json') {
    const recordings = await recordingsForReplay('json', settings, tables.catalog, logger, dir);
    return createJsonSimulator(settings, { ...tables, logger, ...(recordings && { recordings }) });
  }
  const recordings = await recordingsForReplay('legacy', settings, tables.catalog, logger, dir);
  return createLegacySimulator(settings, { ...tables, logger, ...(recordings && { recordings }) });
}

/** A URL host for a listen address: brackets for IPv6, loopback for a wildcard. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
