import type { Command } from 'commander';
import {
  LOG_FORMAT_OPTION,
  LOG_LEVEL_OPTION,
  RECORDING_KINDS,
  MAX_REPLAY_DELAY_MS,
  always,
  coreError,
  parseBoolean,
  parseInteger,
  parseOneOf,
  parseOptions,
  parseText,
  type LogFormat,
  type LogLevel,
  type OptionSpec,
  type RecordingKind,
  type ReplaySchedule,
} from '@racedata/core';
import { addOptions, optionTexts } from '../options';

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
  readonly logFormat: LogFormat;
}

type ReplayOptionKey =
  | 'target'
  | 'recordings'
  | 'kind'
  | 'maxDelay'
  | 'interval'
  | 'initialDelay'
  | 'loop'
  | 'rebaseDates'
  | 'waitTimeout'
  | 'retries'
  | 'progressInterval'
  | 'logLevel'
  | 'logFormat';

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

const REPLAY_MS = parseInteger(0, MAX_REPLAY_DELAY_MS);

/** The replay command's options, in the same table form as the simulator settings. */
export const REPLAY_OPTIONS: readonly OptionSpec<ReplayOptionKey>[] = [
  {
    key: 'target',
    flag: '--target',
    env: 'REPLAY_TARGET',
    description: 'simulator base URL',
    defaultFor: always(undefined),
    parse: parseTarget,
  },
  {
    key: 'recordings',
    flag: '--recordings',
    env: 'RECORDINGS_DIR',
    description: 'recordings directory or file (default: the bundled recordings)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'kind',
    flag: '--kind',
    env: 'REPLAY_KIND',
    description: 'legacy or json (default: what the target /health reports)',
    defaultFor: always(undefined),
    parse: parseOneOf(RECORDING_KINDS),
  },
  {
    key: 'maxDelay',
    flag: '--max-delay',
    env: 'MAX_DELAY',
    description: 'cap in ms on each recorded gap (default: no cap)',
    defaultFor: always(undefined),
    parse: REPLAY_MS,
  },
  {
    key: 'interval',
    flag: '--interval',
    env: 'AUTO_REPLAY_MESSAGE_INTERVAL',
    description: 'send one message every this many ms instead of the recorded timing',
    defaultFor: always(undefined),
    parse: parseInteger(1, MAX_REPLAY_DELAY_MS),
  },
  {
    key: 'initialDelay',
    flag: '--initial-delay',
    env: 'INITIAL_DELAY',
    description: 'ms before the first message (default: the interval, or 0 in timed replay)',
    defaultFor: always(undefined),
    parse: REPLAY_MS,
  },
  {
    key: 'loop',
    flag: '--loop',
    env: 'REPLAY_LOOP',
    // The interface says interval replay loops when the recording ends (4.6 rule 6).
    description: 'start over when the recording ends (default: only with --interval)',
    defaultFor: always(undefined),
    parse: parseBoolean,
    boolean: true,
  },
  {
    key: 'rebaseDates',
    flag: '--rebase-dates',
    env: 'REPLAY_REBASE_DATES',
    description: 'shift recorded dates so the first race day is today',
    defaultFor: always('false'),
    parse: parseBoolean,
    boolean: true,
  },
  {
    key: 'waitTimeout',
    flag: '--wait-timeout',
    env: 'REPLAY_WAIT_TIMEOUT',
    description: 'ms to wait for the target /health before giving up',
    defaultFor: always('30000'),
    parse: REPLAY_MS,
  },
  {
    key: 'retries',
    flag: '--retries',
    env: 'REPLAY_RETRIES',
    description: 'extra attempts for a post that fails with a network error or 5xx',
    defaultFor: always('3'),
    parse: parseInteger(0, 20),
  },
  {
    key: 'progressInterval',
    flag: '--progress-interval',
    env: 'REPLAY_PROGRESS_INTERVAL',
    description: 'ms between progress lines, 0 for only the final one',
    defaultFor: always('10000'),
    parse: REPLAY_MS,
  },
  // Without choices: a bad level gets this command's own CONFIG_INVALID line, as always.
  { ...LOG_LEVEL_OPTION, choices: undefined },
  { ...LOG_FORMAT_OPTION, choices: undefined },
];

export function addReplayOptions(command: Command): Command {
  return addOptions(command, REPLAY_OPTIONS, undefined);
}

/** Flag beats env var beats default; a bad value throws CONFIG_INVALID naming variable and flag. */
export function resolveReplayOptions(
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): ReplayOptions {
  const texts = optionTexts(REPLAY_OPTIONS, flags, env);
  if (texts.target === undefined) {
    throw coreError(
      'CONFIG_INVALID',
      `REPLAY_TARGET (--target) is required, e.g. --target http://localhost:8080`,
    );
  }
  const o = parseOptions(REPLAY_OPTIONS, texts, undefined) as {
    target: string;
    recordings: string | undefined;
    kind: RecordingKind | undefined;
    maxDelay: number | undefined;
    interval: number | undefined;
    initialDelay: number | undefined;
    loop: boolean | undefined;
    rebaseDates: boolean;
    waitTimeout: number;
    retries: number;
    progressInterval: number;
    logLevel: LogLevel;
    logFormat: LogFormat;
  };
  const { interval: intervalMs, maxDelay: maxDelayMs, initialDelay: initialDelayMs } = o;
  const schedule: ReplaySchedule =
    intervalMs !== undefined
      ? { mode: 'interval', intervalMs, ...(initialDelayMs !== undefined && { initialDelayMs }) }
      : {
          mode: 'timed',
          ...(maxDelayMs !== undefined && { maxDelayMs }),
          ...(initialDelayMs !== undefined && { initialDelayMs }),
        };
  return {
    target: o.target,
    recordingsDir: o.recordings,
    kind: o.kind,
    schedule,
    loop: o.loop ?? schedule.mode === 'interval',
    rebaseDates: o.rebaseDates,
    waitTimeoutMs: o.waitTimeout,
    retries: o.retries,
    progressIntervalMs: o.progressInterval,
    logLevel: o.logLevel,
    logFormat: o.logFormat,
  };
}
