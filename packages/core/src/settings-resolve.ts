import { coreError } from './errors';
import { parseOptions } from './option-parsers';
import type { SimulatorKind } from './description';
import { SETTINGS, type SettingKey, type SimulatorSettings } from './settings';

/**
 * Turns raw strings (flag or env values, keyed by setting) into settings, filling defaults.
 * A bad value throws CONFIG_INVALID naming the variable, for the CLI to print and exit 2.
 */
export function parseSettings(
  kind: SimulatorKind,
  raw: Partial<Record<SettingKey, string | undefined>>,
): SimulatorSettings {
  const values = parseOptions(SETTINGS, raw, kind);
  return resolveSettings(kind, values as Partial<SimulatorSettings>);
}

/** Fills defaults for settings given as values (tests, embedders) and checks cross-field rules. */
export function resolveSettings(
  kind: SimulatorKind,
  partial: Partial<SimulatorSettings> = {},
): SimulatorSettings {
  const merged: Record<string, unknown> = {};
  for (const spec of SETTINGS) {
    const given = partial[spec.key];
    if (given !== undefined) {
      merged[spec.key] = given;
    } else {
      const text = spec.defaultFor(kind);
      merged[spec.key] = text === undefined ? undefined : spec.parse(text);
    }
  }
  const settings = merged as unknown as SimulatorSettings;
  if (settings.eventsDefaultLimit > settings.eventsMaxLimit) {
    throw coreError(
      'CONFIG_INVALID',
      `EVENTS_DEFAULT_LIMIT (${settings.eventsDefaultLimit}) must not exceed EVENTS_MAX_LIMIT (${settings.eventsMaxLimit})`,
    );
  }
  const { httpHeadersTimeoutMs: headers, httpRequestTimeoutMs: request } = settings;
  // Node refuses a head deadline later than the whole request's.
  if (headers > 0 && request > 0 && headers > request) {
    throw coreError(
      'CONFIG_INVALID',
      `HTTP_HEADERS_TIMEOUT_MS (${headers}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${request})`,
    );
  }
  // Both would feed the same channels with two different days.
  if (
    settings.raceDay !== undefined &&
    (settings.autoReplayIntervalMs !== undefined || settings.maxDelayMs !== undefined)
  ) {
    const replay =
      settings.autoReplayIntervalMs !== undefined
        ? 'AUTO_REPLAY_MESSAGE_INTERVAL (--auto-replay-interval)'
        : 'MAX_DELAY (--max-delay)';
    throw coreError(
      'CONFIG_INVALID',
      `RACE_DAY (--race-day) plays a generated day and ${replay} replays recordings, and both would feed the same channels: ` +
        'set one of them (--no-race-day or --no-replay turns one off)',
    );
  }
  return Object.freeze(settings);
}
