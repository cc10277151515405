import { SETTINGS, parseSettings, resolveSettings, type SimulatorSettings } from '@racedata/core';
import { settingsToEnv } from '../src/settings-env';

// What a container gets for its settings must be what the CLI inside it reads back.
function readBack(env: Record<string, string>): SimulatorSettings {
  const raw = Object.fromEntries(SETTINGS.map((spec) => [spec.key, env[spec.env]]));
  return parseSettings('json', raw);
}

describe('settingsToEnv', () => {
  test('names each setting by its environment variable', () => {
    expect(settingsToEnv({ controlToken: 'ct', longPollTimeoutMs: 500, replayRebaseDates: true })).toEqual({
      CONTROL_TOKEN: 'ct',
      LONG_POLL_TIMEOUT_MS: '500',
      REPLAY_REBASE_DATES: 'true',
    });
    expect(settingsToEnv({})).toEqual({});
  });

  test('the simulator reads back exactly the settings given: numbers, switches, choices, text', () => {
    const given: Partial<SimulatorSettings> = {
      longPollTimeoutMs: 750,
      tokenMode: 'jwt',
      tokenTtlSeconds: 60,
      jwtSecret: 'k e y',
      autoReplayIntervalMs: 20,
      replayRebaseDates: false,
      controlApi: 'off',
      controlToken: 'x',
      journalMax: 5,
      logLevel: 'warn',
    };
    expect(readBack(settingsToEnv(given))).toEqual(resolveSettings('json', given));
  });
});
