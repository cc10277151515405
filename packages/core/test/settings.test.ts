import {
  parseBoolean,
  parseInteger,
  parseOneOf,
  parseSettings,
  resolveSettings,
  SETTINGS,
  SimError,
  type SettingKey,
  type SettingSpec,
  type SimulatorKind,
} from '@racedata/core';

function configError(fn: () => unknown): SimError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SimError);
    expect((err as SimError).code).toBe('CONFIG_INVALID');
    return err as SimError;
  }
  throw new Error('expected CONFIG_INVALID, nothing was thrown');
}

const spec = (key: SettingKey): SettingSpec => SETTINGS.find((s) => s.key === key) as SettingSpec;

const COMMON_DEFAULTS = {
  host: '127.0.0.1',
  longPollTimeoutMs: 60_000,
  wsAuthTimeoutMs: 10_000,
  wsPingIntervalMs: 60_000,
  tokenMode: 'fixed',
  tokenTtlSeconds: 86_400,
  jwtSecret: undefined,
  usersFile: undefined,
  channelsFile: undefined,
  recordingsDir: undefined,
  autoReplayIntervalMs: undefined,
  initialDelayMs: undefined,
  maxDelayMs: undefined,
  replayRebaseDates: false,
  raceDay: undefined,
  raceDaySpeed: 1,
  raceDaySeed: undefined,
  raceDayEdgeCases: 'default',
  raceDayMeetings: 'auto',
  raceDayAt: 'now',
  strictPayloads: false,
  eventsDefaultLimit: 100,
  eventsMaxLimit: 10_000,
  eventStoreMax: 1_000_000,
  eventStoreMaxBytes: 256 * 1024 * 1024,
  legacyQueueRetentionMs: 86_400_000,
  legacyQueueMax: 10_000,
  legacyQueueMaxBytes: 128 * 1024 * 1024,
  maxBodyBytes: 1024 * 1024,
  seedMaxBodyBytes: 512 * 1024 * 1024,
  wsMaxBufferedBytes: 4 * 1024 * 1024,
  httpHeadersTimeoutMs: 10_000,
  httpRequestTimeoutMs: 30_000,
  maxInflightBodyBytes: 64 * 1024 * 1024,
  stompMaxFrameBytes: 1024 * 1024,
  stompMaxSubscriptions: 100,
  wsMaxSessionsPerUser: 100,
  journalMax: 10_000,
  journalWaitersMax: 100,
  consoleStreamsMax: 20,
  consoleStreamMaxBufferedBytes: 4 * 1024 * 1024,
  faultRulesMax: 100,
  faultBodyMaxBytes: 64 * 1024,
  controlApi: 'on',
  controlToken: undefined,
  controlAllowedHosts: ['localhost'],
  sandboxMax: 100,
  sandboxIdleMs: 900_000,
  logLevel: 'info',
  logFormat: 'auto',
  logRequests: false,
};

describe('parseSettings', () => {
  test('legacy defaults: port 8080 and the README configuration table', () => {
    expect(parseSettings('legacy', {})).toEqual({ port: 8080, ...COMMON_DEFAULTS });
  });

  test('json defaults: port 3000 and the README configuration table', () => {
    expect(parseSettings('json', {})).toEqual({ port: 3000, ...COMMON_DEFAULTS });
  });

  test('every setting has a default entry in the result, even when unset', () => {
    const settings = parseSettings('json', {});
    for (const s of SETTINGS) expect(Object.prototype.hasOwnProperty.call(settings, s.key)).toBe(true);
    expect(Object.keys(settings).sort()).toEqual(SETTINGS.map((s) => s.key).sort());
  });

  test('given values override defaults and are converted to their types', () => {
    const settings = parseSettings('legacy', {
      port: '9090',
      host: '127.0.0.1',
      longPollTimeoutMs: '1500',
      tokenMode: 'jwt',
      tokenTtlSeconds: '60',
      jwtSecret: 's3cret',
      usersFile: '/tmp/users.json',
      autoReplayIntervalMs: '250',
      initialDelayMs: '0',
      maxDelayMs: '5000',
      replayRebaseDates: 'yes',
      eventsDefaultLimit: '50',
      eventsMaxLimit: '500',
      logLevel: 'silent',
    });
    expect(settings).toMatchObject({
      port: 9090,
      host: '127.0.0.1',
      longPollTimeoutMs: 1500,
      tokenMode: 'jwt',
      tokenTtlSeconds: 60,
      jwtSecret: 's3cret',
      usersFile: '/tmp/users.json',
      autoReplayIntervalMs: 250,
      initialDelayMs: 0,
      maxDelayMs: 5000,
      replayRebaseDates: true,
      eventsDefaultLimit: 50,
      eventsMaxLimit: 500,
      logLevel: 'silent',
    });
  });

  test('an undefined raw value means "use the default"', () => {
    expect(parseSettings('json', { port: undefined, tokenMode: undefined })).toMatchObject({
      port: 3000,
      tokenMode: 'fixed',
    });
  });

  test('numbers may carry surrounding spaces; port 0 (any free port) and 65535 are allowed', () => {
    expect(parseSettings('json', { port: ' 8081 ' }).port).toBe(8081);
    expect(parseSettings('json', { port: '0' }).port).toBe(0);
    expect(parseSettings('json', { port: '65535' }).port).toBe(65535);
  });

  test('the result is frozen', () => {
    const settings = parseSettings('json', {});
    expect(Object.isFrozen(settings)).toBe(true);
    expect(() => {
      (settings as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(settings.port).toBe(3000);
  });

  test.each<[SettingKey, string, string]>([
    ['port', 'abc', 'PORT'],
    ['port', '-1', 'PORT'],
    ['port', '65536', 'PORT'],
    ['port', '80.5', 'PORT'],
    ['port', '0x50', 'PORT'],
    ['port', '1e3', 'PORT'],
    ['port', '', 'PORT'],
    ['host', '   ', 'HOST'],
    ['longPollTimeoutMs', '-1', 'LONG_POLL_TIMEOUT_MS'],
    ['longPollTimeoutMs', '0', 'LONG_POLL_TIMEOUT_MS'],
    ['wsAuthTimeoutMs', '-100', 'WS_AUTH_TIMEOUT_MS'],
    ['wsPingIntervalMs', 'soon', 'WS_PING_INTERVAL_MS'],
    ['tokenMode', 'x', 'TOKEN_MODE'],
    ['tokenMode', 'JWT', 'TOKEN_MODE'],
    ['tokenTtlSeconds', '0', 'TOKEN_TTL_SECONDS'],
    ['autoReplayIntervalMs', '-5', 'AUTO_REPLAY_MESSAGE_INTERVAL'],
    ['autoReplayIntervalMs', '0', 'AUTO_REPLAY_MESSAGE_INTERVAL'],
    ['initialDelayMs', '-1', 'INITIAL_DELAY'],
    ['maxDelayMs', '-1', 'MAX_DELAY'],
    ['replayRebaseDates', 'maybe', 'REPLAY_REBASE_DATES'],
    ['eventsDefaultLimit', '0', 'EVENTS_DEFAULT_LIMIT'],
    ['eventsMaxLimit', 'lots', 'EVENTS_MAX_LIMIT'],
    ['eventStoreMax', '-10', 'EVENT_STORE_MAX'],
    ['legacyQueueRetentionMs', '-1', 'LEGACY_QUEUE_RETENTION_MS'],
    ['legacyQueueMax', '1.5', 'LEGACY_QUEUE_MAX'],
    ['legacyQueueMaxBytes', '0', 'LEGACY_QUEUE_MAX_BYTES'],
    ['maxBodyBytes', '1MB', 'MAX_BODY_BYTES'],
    ['wsMaxBufferedBytes', '0', 'WS_MAX_BUFFERED_BYTES'],
    ['httpHeadersTimeoutMs', '-1', 'HTTP_HEADERS_TIMEOUT_MS'],
    ['httpRequestTimeoutMs', '1.5', 'HTTP_REQUEST_TIMEOUT_MS'],
    ['maxInflightBodyBytes', '0', 'MAX_INFLIGHT_BODY_BYTES'],
    ['stompMaxFrameBytes', '10', 'STOMP_MAX_FRAME_BYTES'],
    ['stompMaxSubscriptions', '0', 'STOMP_MAX_SUBSCRIPTIONS'],
    ['wsMaxSessionsPerUser', '0', 'WS_MAX_SESSIONS_PER_USER'],
    ['journalMax', '0', 'JOURNAL_MAX'],
    ['journalWaitersMax', '0', 'JOURNAL_WAITERS_MAX'],
    ['consoleStreamsMax', '0', 'CONSOLE_STREAMS_MAX'],
    ['consoleStreamMaxBufferedBytes', '1023', 'CONSOLE_STREAM_MAX_BUFFERED_BYTES'],
    ['faultRulesMax', '0', 'FAULT_RULES_MAX'],
    ['faultBodyMaxBytes', '-1', 'FAULT_BODY_MAX_BYTES'],
    ['controlApi', 'maybe', 'CONTROL_API'],
    ['logLevel', 'loud', 'LOG_LEVEL'],
  ])('%s = %j is CONFIG_INVALID naming %s', (key, value, env) => {
    const err = configError(() => parseSettings('json', { [key]: value }));
    expect(err.message.startsWith(env)).toBe(true);
    expect(err.message).toContain(env);
    // The message shows the offending value (blank ones are described instead).
    if (value.trim() !== '') expect(err.message).toContain(value);
    expect(err.status).toBe(500);
  });

  test('every setting refuses a malformed value with a message naming its env var (and flag if any)', () => {
    const bad = (s: SettingSpec): string => {
      if (s.key === 'tokenMode' || s.key === 'logLevel') return 'bogus';
      if (s.key === 'replayRebaseDates') return 'perhaps';
      if (s.key === 'controlAllowedHosts') return 'http://json-sim:3000';
      if (s.key === 'raceDayEdgeCases') return 'dead heat!';
      if (['host', 'jwtSecret', 'usersFile', 'channelsFile', 'recordingsDir', 'controlToken'].includes(s.key))
        return '  ';
      return 'abc';
    };
    for (const s of SETTINGS) {
      const err = configError(() => parseSettings('legacy', { [s.key]: bad(s) }));
      expect(err.message).toMatch(new RegExp(`^${s.env}\\b`));
      if (s.flag) expect(err.message).toContain(s.flag);
    }
  });

  test('EVENTS_DEFAULT_LIMIT above EVENTS_MAX_LIMIT is refused, naming both', () => {
    const err = configError(() =>
      parseSettings('json', { eventsDefaultLimit: '200', eventsMaxLimit: '100' }),
    );
    expect(err.message).toContain('EVENTS_DEFAULT_LIMIT');
    expect(err.message).toContain('EVENTS_MAX_LIMIT');
    const againstDefault = configError(() => parseSettings('json', { eventsMaxLimit: '50' }));
    expect(againstDefault.message).toContain('EVENTS_MAX_LIMIT (50)');
    expect(parseSettings('json', { eventsDefaultLimit: '100', eventsMaxLimit: '100' }).eventsMaxLimit).toBe(
      100,
    );
  });

  test('HTTP_HEADERS_TIMEOUT_MS above HTTP_REQUEST_TIMEOUT_MS is refused unless one of them is off', () => {
    const err = configError(() =>
      parseSettings('json', { httpHeadersTimeoutMs: '5000', httpRequestTimeoutMs: '1000' }),
    );
    expect(err.message).toContain('HTTP_HEADERS_TIMEOUT_MS (5000)');
    expect(err.message).toContain('HTTP_REQUEST_TIMEOUT_MS (1000)');
    expect(parseSettings('json', { httpRequestTimeoutMs: '0' }).httpRequestTimeoutMs).toBe(0);
    expect(
      parseSettings('json', { httpHeadersTimeoutMs: '0', httpRequestTimeoutMs: '5' }).httpHeadersTimeoutMs,
    ).toBe(0);
  });

  test('text settings keep their value verbatim (a JWT secret may have spaces)', () => {
    expect(parseSettings('json', { jwtSecret: ' a b ' }).jwtSecret).toBe(' a b ');
  });

  // Node runs a timer longer than 2^31-1 ms after 1 ms (TimeoutOverflowWarning), so e.g.
  // LONG_POLL_TIMEOUT_MS=2147483648 would answer every long poll at once. Refuse such values at start.
  test.each<SettingKey>([
    'longPollTimeoutMs',
    'wsAuthTimeoutMs',
    'wsPingIntervalMs',
    'autoReplayIntervalMs',
    'initialDelayMs',
  ])('%s above the Node timer limit (2^31-1 ms) is CONFIG_INVALID', (key) => {
    expect(parseSettings('json', { [key]: '2147483647' })[key]).toBe(2_147_483_647);
    const err = configError(() => parseSettings('json', { [key]: '2147483648' }));
    expect(err.message).toContain(spec(key).env);
  });
});

describe('resolveSettings', () => {
  test.each<[SimulatorKind, number]>([
    ['json', 3000],
    ['legacy', 8080],
  ])('fills defaults for %s (port %d)', (kind, port) => {
    expect(resolveSettings(kind)).toEqual({ port, ...COMMON_DEFAULTS });
  });

  test('keeps given typed values, fills the rest, freezes the result', () => {
    const settings = resolveSettings('json', { port: 0, longPollTimeoutMs: 50, tokenMode: 'jwt' });
    expect(settings).toMatchObject({ port: 0, longPollTimeoutMs: 50, tokenMode: 'jwt', host: '127.0.0.1' });
    expect(Object.isFrozen(settings)).toBe(true);
  });

  test('applies the cross-field check too', () => {
    configError(() => resolveSettings('json', { eventsDefaultLimit: 20_000 }));
    configError(() => resolveSettings('legacy', { eventsMaxLimit: 10 }));
  });
});

describe('SETTINGS table', () => {
  test('env names and flags are unique and match the README', () => {
    const envs = SETTINGS.map((s) => s.env);
    expect(new Set(envs).size).toBe(envs.length);
    const flags = SETTINGS.flatMap((s) => (s.flag ? [s.flag] : []));
    expect(new Set(flags).size).toBe(flags.length);
    expect(spec('port')).toMatchObject({ env: 'PORT', flag: '--port' });
    expect(spec('host')).toMatchObject({ env: 'HOST', flag: '--host' });
    expect(spec('longPollTimeoutMs')).toMatchObject({
      env: 'LONG_POLL_TIMEOUT_MS',
      flag: '--long-poll-timeout',
    });
    expect(spec('wsAuthTimeoutMs')).toMatchObject({ env: 'WS_AUTH_TIMEOUT_MS', flag: '--ws-auth-timeout' });
    expect(spec('wsPingIntervalMs')).toMatchObject({
      env: 'WS_PING_INTERVAL_MS',
      flag: '--ws-ping-interval',
    });
    expect(spec('tokenMode')).toMatchObject({ env: 'TOKEN_MODE', flag: '--token-mode' });
    expect(spec('tokenTtlSeconds')).toMatchObject({ env: 'TOKEN_TTL_SECONDS', flag: '--token-ttl' });
    expect(spec('usersFile')).toMatchObject({ env: 'USERS_FILE', flag: '--users' });
    expect(spec('channelsFile')).toMatchObject({ env: 'CHANNELS_FILE', flag: '--channels' });
    expect(spec('recordingsDir')).toMatchObject({ env: 'RECORDINGS_DIR', flag: '--recordings' });
    expect(spec('autoReplayIntervalMs')).toMatchObject({
      env: 'AUTO_REPLAY_MESSAGE_INTERVAL',
      flag: '--auto-replay-interval',
    });
    expect(spec('initialDelayMs')).toMatchObject({ env: 'INITIAL_DELAY', flag: '--initial-delay' });
    expect(spec('maxDelayMs')).toMatchObject({ env: 'MAX_DELAY', flag: '--max-delay' });
    expect(spec('eventsDefaultLimit').env).toBe('EVENTS_DEFAULT_LIMIT');
    expect(spec('eventsMaxLimit').env).toBe('EVENTS_MAX_LIMIT');
    expect(spec('eventStoreMax').env).toBe('EVENT_STORE_MAX');
    expect(spec('legacyQueueRetentionMs').env).toBe('LEGACY_QUEUE_RETENTION_MS');
    expect(spec('legacyQueueMax').env).toBe('LEGACY_QUEUE_MAX');
    expect(spec('legacyQueueMaxBytes').env).toBe('LEGACY_QUEUE_MAX_BYTES');
  });

  test('the port default depends on the simulator kind, nothing else does', () => {
    for (const s of SETTINGS) {
      if (s.key === 'port') continue;
      expect(s.defaultFor('json')).toBe(s.defaultFor('legacy'));
    }
    expect(spec('port').defaultFor('legacy')).toBe('8080');
    expect(spec('port').defaultFor('json')).toBe('3000');
  });

  test('every shown default parses with its own parser', () => {
    for (const s of SETTINGS) {
      for (const kind of ['json', 'legacy'] as const) {
        const text = s.defaultFor(kind);
        if (text !== undefined) expect(() => s.parse(text)).not.toThrow();
      }
    }
  });
});

describe('value parsers', () => {
  test('parseInteger accepts whole numbers within bounds only', () => {
    const p = parseInteger(1, 10);
    expect(p('1')).toBe(1);
    expect(p(' 10 ')).toBe(10);
    expect(p('007')).toBe(7);
    for (const bad of ['0', '11', '-1', '1.0', '', ' ', '+5', '5a', 'NaN', 'Infinity']) {
      expect(() => p(bad)).toThrow();
    }
    expect(parseInteger(-5)('-5')).toBe(-5);
    expect(() => parseInteger(0)('99999999999999999999')).toThrow();
  });

  test('parseBoolean knows the usual spellings, case-insensitive, empty = false', () => {
    for (const yes of ['true', 'TRUE', '1', 'yes', 'On', ' true ']) expect(parseBoolean(yes)).toBe(true);
    for (const no of ['false', 'False', '0', 'no', 'OFF', '']) expect(parseBoolean(no)).toBe(false);
    for (const bad of ['2', 'y', 'enabled']) expect(() => parseBoolean(bad)).toThrow(/true or false/);
  });

  test('parseOneOf trims and accepts only listed values, listing them when refusing', () => {
    const p = parseOneOf(['fixed', 'jwt'] as const);
    expect(p(' jwt ')).toBe('jwt');
    expect(() => p('Jwt')).toThrow(/fixed, jwt/);
  });
});
