import { Option, type Command } from 'commander';
import {
  LOG_LEVELS,
  RECORDING_KINDS,
  MAX_REPLAY_DELAY_MS,
  coreError,
  parseBoolean,
  parseInteger,
  parseOneOf,
  type LogLevel,
  type RecordingKind,
  type ReplaySchedule,
} from '@racedata/core';
import { envValue } from '../env';

/** Everything `racedata-sim replay` was told, parsed and validated. */
export interface ReplayOptions {
  /** Base address without a trailing slash, e.g. `http://localhost:8080`. */
  readonly target: string;
  readonly recordingsDir: string | undefined;
  /** Undefined: taken from the target's /health. */
  readonly kind: RecordingKind | undefined;
  readonly schedule: ReplaySchedule;
  readonly loop: boolean;
  readonly rebaseDates: boolean;
  readonly waitTimeoutMs: number;
  readonly retries: number;
  /** 0: progress only at the end. */
  readonly progressIntervalMs: number;
  readonly logLevel: LogLevel;
}

interface Spec {
  readonly key: string;
  readonly flag: string;
  readonly env: string;
  readonly description: string;
  /** Boolean switches take no value and get a `--no-` twin. */
  readonly boolean?: boolean;
}

const SPECS = {
  target: { key: 'target', flag: '--target', env: 'REPLAY_TARGET', description: 'simulator base URL' },
  recordings: {
    key: 'recordings',
    flag: '--recordings',
    env: 'RECORDINGS_DIR',
    description: 'recordings directory or file (default: the bundled recordings)',
  },
  kind: {
    key: 'kind',
    flag: '--kind',
    env: 'REPLAY_KIND',
    description: 'legacy or json (default: what the target /health reports)',
  },
  maxDelay: {
    key: 'maxDelay',
    flag: '--max-delay',
    env: 'MAX_DELAY',
    description: 'cap in ms on each recorded gap (default: no cap)',
  },
  interval: {
    key: 'interval',
    flag: '--interval',
    env: 'AUTO_REPLAY_MESSAGE_INTERVAL',
    description: 'send one message every this many ms instead of the recorded timing',
  },
  initialDelay: {
    key: 'initialDelay',
    flag: '--initial-delay',
    env: 'INITIAL_DELAY',
    description: 'ms before the first message (default: the interval, or 0 in timed replay)',
  },
  loop: {
    key: 'loop',
    flag: '--loop',
    env: 'REPLAY_LOOP',
    description: 'start over when the recording ends (default: only with --interval)',
    boolean: true,
  },
  rebaseDates: {
    key: 'rebaseDates',
    flag: '--rebase-dates',
    env: 'REPLAY_REBASE_DATES',
    description: 'shift recorded dates so the first race day is today (default: false)',
    boolean: true,
  },
  waitTimeout: {
    key: 'waitTimeout',
    flag: '--wait-timeout',
    env: 'REPLAY_WAIT_TIMEOUT',
    description: 'ms to wait for the target /health before giving up (default: 30000)',
  },
  retries: {
    key: 'retries',
    flag: '--retries',
    env: 'REPLAY_RETRIES',
    description: 'extra attempts for a post that fails with a network error or 5xx (default: 3)',
  },
  progressInterval: {
    key: 'progressInterval',
    flag: '--progress-interval',
    env: 'REPLAY_PROGRESS_INTERVAL',
    description: 'ms between progress lines, 0 for only the final one (default: 10000)',
  },
  logLevel: {
    key: 'logLevel',
    flag: '--log-level',
    env: 'LOG_LEVEL',
    description: 'log level (default: info)',
  },
} as const satisfies Record<string, Spec>;

export function addReplayOptions(command: Command): Command {
  for (const spec of Object.values(SPECS) as Spec[]) {
    const text = `${spec.description} (env ${spec.env})`;
    if (spec.boolean) {
      command.addOption(new Option(spec.flag, text));
      command.addOption(new Option(spec.flag.replace(/^--/, '--no-'), `turn ${spec.flag} off`).hideHelp());
    } else {
      command.addOption(new Option(`${spec.flag} <value>`, text));
    }
  }
  return command;
}

function parseTarget(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`expected an http(s) URL such as http://localhost:8080, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`expected an http(s) URL, got "${raw}"`);
  }
  if (url.search || url.hash) throw new Error(`expected a base URL without query or fragment, got "${raw}"`);
  return url.href.replace(/\/+$/, '');
}

function parseDir(raw: string): string {
  if (raw.trim() === '') throw new Error('must not be empty');
  return raw;
}

/** Flag beats env var beats default; a bad value throws CONFIG_INVALID naming variable and flag. */
export function resolveReplayOptions(
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): ReplayOptions {
  const read = <T>(spec: Spec, parse: (raw: string) => T): T | undefined => {
    const flag = flags[spec.key];
    const raw =
      typeof flag === 'boolean' ? String(flag) : typeof flag === 'string' ? flag : envValue(env, spec.env);
    if (raw === undefined) return undefined;
    try {
      return parse(raw);
    } catch (err) {
      throw coreError('CONFIG_INVALID', `${spec.env} (${spec.flag}): ${(err as Error).message}`);
    }
  };
  const target = read(SPECS.target, parseTarget);
  if (target === undefined) {
    throw coreError(
      'CONFIG_INVALID',
      `REPLAY_TARGET (--target) is required, e.g. --target http://localhost:8080`,
    );
  }
  const intervalMs = read(SPECS.interval, parseInteger(1, MAX_REPLAY_DELAY_MS));
  const maxDelayMs = read(SPECS.maxDelay, parseInteger(0, MAX_REPLAY_DELAY_MS));
  const initialDelayMs = read(SPECS.initialDelay, parseInteger(0, MAX_REPLAY_DELAY_MS));
  const schedule: ReplaySchedule =
    intervalMs !== undefined
      ? { mode: 'interval', intervalMs, ...(initialDelayMs !== undefined && { initialDelayMs }) }
      : {
          mode: 'timed',
          ...(maxDelayMs !== undefined && { maxDelayMs }),
          ...(initialDelayMs !== undefined && { initialDelayMs }),
        };
  return {
    target,
    recordingsDir: read(SPECS.recordings, parseDir),
    kind: read(SPECS.kind, parseOneOf(RECORDING_KINDS)),
    schedule,
    // The interface says interval replay loops when the recording ends (4.6 rule 6).
    loop: read(SPECS.loop, parseBoolean) ?? schedule.mode === 'interval',
    rebaseDates: read(SPECS.rebaseDates, parseBoolean) ?? false,
    waitTimeoutMs: read(SPECS.waitTimeout, parseInteger(0, MAX_REPLAY_DELAY_MS)) ?? 30_000,
    retries: read(SPECS.retries, parseInteger(0, 20)) ?? 3,
    progressIntervalMs: read(SPECS.progressInterval, parseInteger(0, MAX_REPLAY_DELAY_MS)) ?? 10_000,
    logLevel: read(SPECS.logLevel, parseOneOf(LOG_LEVELS)) ?? 'info',
  };
}
