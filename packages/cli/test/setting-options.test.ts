import { Command } from 'commander';
import { addSettingOptions, resolveCliSettings } from '../src/setting-options';

function flagsOf(kind: 'json' | 'legacy' | 'all', argv: string[]): Record<string, unknown> {
  const command = addSettingOptions(new Command('x').exitOverride(), kind);
  command.parse(argv, { from: 'user' });
  return command.opts();
}

describe('resolveCliSettings', () => {
  test('defaults per simulator (README, Configuration)', () => {
    const json = resolveCliSettings('json', {}, {});
    const legacy = resolveCliSettings('legacy', {}, {});
    expect(json.port).toBe(3000);
    expect(legacy.port).toBe(8080);
    expect(json.host).toBe('127.0.0.1');
    expect(json.longPollTimeoutMs).toBe(60000);
    expect(json.wsAuthTimeoutMs).toBe(10000);
    expect(json.wsPingIntervalMs).toBe(60000);
    expect(json.tokenMode).toBe('fixed');
    expect(json.tokenTtlSeconds).toBe(86400);
    expect(json.eventsDefaultLimit).toBe(100);
    expect(json.eventsMaxLimit).toBe(10000);
    expect(json.eventStoreMax).toBe(1_000_000);
    expect(legacy.legacyQueueRetentionMs).toBe(24 * 3600 * 1000);
    expect(legacy.legacyQueueMax).toBe(10000);
    expect(json.autoReplayIntervalMs).toBeUndefined();
  });

  test('flag beats env var beats default', () => {
    const env = { PORT: '4000', LONG_POLL_TIMEOUT_MS: '500' };
    const settings = resolveCliSettings('json', flagsOf('json', ['--port', '5000']), env);
    expect(settings.port).toBe(5000);
    expect(settings.longPollTimeoutMs).toBe(500);
  });

  test('every documented env var is read', () => {
    const settings = resolveCliSettings(
      'json',
      {},
      {
        AUTO_REPLAY_MESSAGE_INTERVAL: '200',
        INITIAL_DELAY: '0',
        MAX_DELAY: '1500',
        TOKEN_MODE: 'jwt',
        TOKEN_TTL_SECONDS: '60',
        WS_AUTH_TIMEOUT_MS: '2000',
        WS_PING_INTERVAL_MS: '3000',
        EVENTS_DEFAULT_LIMIT: '10',
        EVENTS_MAX_LIMIT: '20',
        EVENT_STORE_MAX: '30',
        LEGACY_QUEUE_RETENTION_MS: '40',
        LEGACY_QUEUE_MAX: '50',
        RECORDINGS_DIR: '/recordings',
        HOST: '127.0.0.1',
      },
    );
    expect(settings).toMatchObject({
      autoReplayIntervalMs: 200,
      initialDelayMs: 0,
      maxDelayMs: 1500,
      tokenMode: 'jwt',
      tokenTtlSeconds: 60,
      wsAuthTimeoutMs: 2000,
      wsPingIntervalMs: 3000,
      eventsDefaultLimit: 10,
      eventsMaxLimit: 20,
      eventStoreMax: 30,
      legacyQueueRetentionMs: 40,
      legacyQueueMax: 50,
      recordingsDir: '/recordings',
      host: '127.0.0.1',
    });
  });

  test.each([
    [{ PORT: 'abc' }, /PORT \(--port\)/],
    [{ AUTO_REPLAY_MESSAGE_INTERVAL: '-5' }, /AUTO_REPLAY_MESSAGE_INTERVAL/],
    [{ TOKEN_MODE: 'magic' }, /TOKEN_MODE.*fixed, jwt/],
    [{ PORT: '70000' }, /PORT.*0 to 65535/],
    [{ EVENTS_DEFAULT_LIMIT: '500', EVENTS_MAX_LIMIT: '100' }, /EVENTS_DEFAULT_LIMIT/],
  ])('malformed %p is refused naming the variable', (env, message) => {
    expect(() => resolveCliSettings('json', {}, env)).toThrow(message);
  });

  test('the all command takes per-simulator ports as overrides', () => {
    const flags = flagsOf('all', ['--long-poll-timeout', '700']);
    const settings = resolveCliSettings('legacy', flags, { PORT: '1' }, { port: '9090' });
    expect(settings.port).toBe(9090);
    expect(settings.longPollTimeoutMs).toBe(700);
  });
});

test('an empty environment variable counts as unset', () => {
  expect(resolveCliSettings('json', {}, { PORT: '', MAX_DELAY: '' })).toMatchObject({
    port: 3000,
    maxDelayMs: undefined,
  });
});

describe('flags as the README writes them', () => {
  it.each(['json', 'legacy', 'all'] as const)(
    '--rebase-dates stands alone on %s, as it does on replay',
    (kind) => {
      const sim = kind === 'all' ? 'json' : kind;
      expect(resolveCliSettings(sim, flagsOf(kind, ['--rebase-dates']), {}).replayRebaseDates).toBe(true);
      expect(resolveCliSettings(sim, flagsOf(kind, ['--rebase-dates', 'false']), {}).replayRebaseDates).toBe(
        false,
      );
      const env = { REPLAY_REBASE_DATES: 'true' };
      expect(resolveCliSettings(sim, flagsOf(kind, ['--no-rebase-dates']), env).replayRebaseDates).toBe(
        false,
      );
    },
  );

  test('a bare switch followed by another flag leaves that flag alone', () => {
    const settings = resolveCliSettings('json', flagsOf('json', ['--rebase-dates', '--port', '4001']), {});
    expect(settings.replayRebaseDates).toBe(true);
    expect(settings.port).toBe(4001);
  });

  test('--no-replay turns replay off whatever flags and env vars say', () => {
    const env = { AUTO_REPLAY_MESSAGE_INTERVAL: '500', MAX_DELAY: '100' };
    const on = resolveCliSettings('json', flagsOf('json', ['--auto-replay-interval', '1000']), env);
    expect(on.autoReplayIntervalMs).toBe(1000);
    const off = resolveCliSettings(
      'json',
      flagsOf('json', ['--auto-replay-interval', '1000', '--no-replay']),
      env,
    );
    expect(off.autoReplayIntervalMs).toBeUndefined();
    expect(off.maxDelayMs).toBeUndefined();
  });

  test('flags with a fixed set of values list them in help and refuse others', () => {
    const command = addSettingOptions(new Command('x').exitOverride(), 'json');
    command.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
    const help = command.helpInformation().replace(/\s+/g, ' ');
    expect(help).toMatch(/--token-mode <value> [^-]*\(choices: "fixed", "jwt"\)/);
    expect(help).toMatch(/--log-level <value> [^-]*\(choices: "fatal", [^)]*"silent"\)/);
    expect(() => command.parse(['--token-mode', '--help'], { from: 'user' })).toThrow(/fixed, jwt/);
  });
});

describe('the log settings', () => {
  test('--log-format and --log-requests, or LOG_FORMAT and LOG_REQUESTS; auto and off by default', () => {
    expect(resolveCliSettings('json', {}, {})).toMatchObject({ logFormat: 'auto', logRequests: false });
    expect(
      resolveCliSettings('legacy', flagsOf('legacy', ['--log-format', 'json', '--log-requests']), {}),
    ).toMatchObject({ logFormat: 'json', logRequests: true });
    expect(resolveCliSettings('json', {}, { LOG_FORMAT: 'pretty', LOG_REQUESTS: 'true' })).toMatchObject({
      logFormat: 'pretty',
      logRequests: true,
    });
    expect(
      resolveCliSettings('json', flagsOf('json', ['--no-log-requests']), { LOG_REQUESTS: 'true' })
        .logRequests,
    ).toBe(false);
  });

  test('a format that is not one of auto, pretty, json is refused naming the variable', () => {
    expect(() => resolveCliSettings('json', {}, { LOG_FORMAT: 'loud' })).toThrow(
      /LOG_FORMAT \(--log-format\): expected one of auto, pretty, json/,
    );
  });
});
