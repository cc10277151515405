import { Option, type Command } from 'commander';
import {
  LOG_FORMAT_OPTION,
  LOG_LEVEL_OPTION,
  always,
  coreError,
  parseBoolean,
  parseInteger,
  parseOptions,
  parseText,
  type LogFormat,
  type LogLevel,
  type OptionSpec,
} from '@racedata/core';
import { TRANSPORTS, UPSTREAM_OF, type Transport } from '@racedata/recorder';
import { envValue } from '../env';
import { addOptions, optionTexts } from '../options';

/** Everything `racedata-sim record` was told, parsed and validated. */
export interface RecordCliOptions {
  readonly out: string;
  readonly jsonUrl: string | undefined;
  readonly legacyUrl: string | undefined;
  readonly key: string;
  readonly secret: string;
  readonly transports: readonly Transport[];
  readonly durationMs: number | undefined;
  readonly fromEventId: number | undefined;
  readonly anonymise: boolean;
  readonly salt: string | undefined;
  readonly redact: readonly string[];
  /** 0: only the final summary. */
  readonly progressIntervalMs: number;
  /** How long the upstream holds a long poll; every request ends by 1.5 times this. */
  readonly longPollTimeoutMs: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
}

type RecordOptionKey =
  | 'out'
  | 'jsonUrl'
  | 'legacyUrl'
  | 'key'
  | 'secret'
  | 'transports'
  | 'duration'
  | 'fromEventId'
  | 'anonymise'
  | 'salt'
  | 'progressInterval'
  | 'longPollTimeout'
  | 'logLevel'
  | 'logFormat';

/** The local simulators, when no URL is given at all. */
const LOCAL = { json: 'http://localhost:3000', legacy: 'http://localhost:8080' } as const;

/** A base URL as the interface's paths hang off it: `https://api.travsport.se/customerapi` works too. */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`expected an http(s) URL such as http://localhost:3000, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`expected an http(s) URL, got "${raw}"`);
  // Credentials in a URL would end up in logs; they go in --key and --secret.
  if (url.username || url.password)
    throw new Error('a URL must not hold credentials; use --key and --secret');
  if (url.search || url.hash) throw new Error(`expected a base URL without query or fragment, got "${raw}"`);
  return url.href.replace(/\/+$/, '').replace(/\/customerapi$/i, '');
}

export function parseDuration(raw: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!match) throw new Error(`expected a duration such as 8h, 30m, 90s or 500ms, got "${raw}"`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 'ms') as 'ms'];
  const ms = Math.round(Number(match[1]) * unit);
  if (ms < 1 || ms > 366 * 24 * 3_600_000)
    throw new Error(`expected a duration from 1 ms to 366 days, got "${raw}"`);
  return ms;
}

function parseTransports(raw: string): Transport[] {
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !TRANSPORTS.includes(name as Transport));
  if (names.length === 0 || unknown.length > 0) {
    throw new Error(`expected a comma list of ${TRANSPORTS.join(', ')}, got "${raw}"`);
  }
  return [...new Set(names as Transport[])];
}

export const RECORD_OPTIONS: readonly OptionSpec<RecordOptionKey>[] = [
  {
    key: 'out',
    flag: '--out',
    env: 'RECORD_OUT',
    description: 'recordings directory to write (created when missing; a re-run continues it)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'jsonUrl',
    flag: '--json-url',
    env: 'RACEDATA_JSON_URL',
    description: 'JSON interface base URL (default: http://localhost:3000 when no URL is given)',
    defaultFor: always(undefined),
    parse: parseBaseUrl,
  },
  {
    key: 'legacyUrl',
    flag: '--legacy-url',
    env: 'RACEDATA_LEGACY_URL',
    description: 'legacy interface base URL (default: http://localhost:8080 when no URL is given)',
    defaultFor: always(undefined),
    parse: parseBaseUrl,
  },
  {
    key: 'key',
    flag: '--key',
    env: 'RACEDATA_KEY',
    description: 'subscription key (prefer the variable: a flag shows in the process list)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'secret',
    flag: '--secret',
    env: 'RACEDATA_SECRET',
    description: 'subscription secret (prefer the variable)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'transports',
    flag: '--transports',
    env: 'RECORD_TRANSPORTS',
    description: `comma list of ${TRANSPORTS.join(', ')} (default: those of the URLs given)`,
    defaultFor: always(undefined),
    parse: parseTransports,
  },
  {
    key: 'duration',
    flag: '--duration',
    env: 'RECORD_DURATION',
    description: 'stop after this long: 8h, 30m, 90s, 500ms (default: until Ctrl-C)',
    defaultFor: always(undefined),
    parse: parseDuration,
  },
  {
    key: 'fromEventId',
    flag: '--from-event-id',
    env: 'RECORD_FROM_EVENT_ID',
    description:
      'follow /customerapi/events after this eventId, 0 for everything kept (default: only new events)',
    defaultFor: always(undefined),
    parse: parseInteger(0),
  },
  {
    key: 'anonymise',
    flag: '--anonymise',
    env: 'RECORD_ANONYMISE',
    description: 'replace names of horses, drivers, jockeys, trainers, owners and breeders by pseudonyms',
    defaultFor: always('false'),
    parse: parseBoolean,
    boolean: true,
  },
  {
    key: 'salt',
    flag: '--salt',
    env: 'RECORD_SALT',
    description:
      'salt that chooses the pseudonyms (the same salt gives the same names; default: a random one)',
    defaultFor: always(undefined),
    parse: parseText,
  },
  {
    key: 'progressInterval',
    flag: '--progress-interval',
    env: 'RECORD_PROGRESS_INTERVAL',
    description: 'ms between progress lines when stdout is no terminal, 0 for only the summary',
    defaultFor: always('5000'),
    parse: parseInteger(0, 86_400_000),
  },
  {
    key: 'longPollTimeout',
    flag: '--long-poll-timeout',
    env: 'RECORD_LONG_POLL_TIMEOUT_MS',
    description:
      "ms the upstream holds a long poll before 204 (the interface's 60000); a request or handshake not done within 1.5 times this is abandoned and retried",
    defaultFor: always('60000'),
    parse: parseInteger(100, 3_600_000),
  },
  { ...LOG_LEVEL_OPTION, choices: undefined },
  { ...LOG_FORMAT_OPTION, choices: undefined },
];

export function addRecordOptions(command: Command): Command {
  addOptions(command, RECORD_OPTIONS, undefined);
  return command.addOption(
    new Option(
      '--redact <path...>',
      'drop a field everywhere: a JSON path (a.b.c, or a bare name) or an XML attribute/element name (env RECORD_REDACT, comma list)',
    ),
  );
}

/** Flag beats env var; a bad or missing value throws CONFIG_INVALID naming variable and flag. */
export function resolveRecordOptions(
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): RecordCliOptions {
  const o = parseOptions(RECORD_OPTIONS, optionTexts(RECORD_OPTIONS, flags, env), undefined) as {
    out?: string;
    jsonUrl?: string;
    legacyUrl?: string;
    key?: string;
    secret?: string;
    transports?: Transport[];
    duration?: number;
    fromEventId?: number;
    anonymise: boolean;
    salt?: string;
    progressInterval: number;
    longPollTimeout: number;
    logLevel: LogLevel;
    logFormat: LogFormat;
  };
  const missing = (what: string) => coreError('CONFIG_INVALID', `${what} is required`);
  if (o.out === undefined) throw missing('RECORD_OUT (--out)');
  if (o.key === undefined) throw missing('RACEDATA_KEY (--key)');
  if (o.secret === undefined) throw missing('RACEDATA_SECRET (--secret)');
  const none = o.jsonUrl === undefined && o.legacyUrl === undefined;
  const jsonUrl = o.jsonUrl ?? (none ? LOCAL.json : undefined);
  const legacyUrl = o.legacyUrl ?? (none ? LOCAL.legacy : undefined);
  const given = { json: jsonUrl, legacy: legacyUrl };
  const transports = o.transports ?? TRANSPORTS.filter((t) => given[UPSTREAM_OF[t]] !== undefined);
  const orphan = transports.find((t) => given[UPSTREAM_OF[t]] === undefined);
  if (orphan) {
    const flag =
      UPSTREAM_OF[orphan] === 'json'
        ? 'RACEDATA_JSON_URL (--json-url)'
        : 'RACEDATA_LEGACY_URL (--legacy-url)';
    throw coreError('CONFIG_INVALID', `RECORD_TRANSPORTS (--transports): ${orphan} needs ${flag}`);
  }
  const redactFlag = Array.isArray(flags.redact) ? (flags.redact as string[]) : undefined;
  const redactEnv = envValue(env, 'RECORD_REDACT')?.split(',');
  const redact = (redactFlag ?? redactEnv ?? []).map((p) => p.trim()).filter(Boolean);
  return {
    out: o.out,
    jsonUrl,
    legacyUrl,
    key: o.key,
    secret: o.secret,
    transports,
    durationMs: o.duration,
    fromEventId: o.fromEventId,
    anonymise: o.anonymise,
    salt: o.salt,
    redact,
    progressIntervalMs: o.progressInterval,
    longPollTimeoutMs: o.longPollTimeout,
    logLevel: o.logLevel,
    logFormat: o.logFormat,
  };
}
