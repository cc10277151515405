import { SETTINGS, type SimulatorSettings } from '@racedata/core';

/**
 * Settings as the environment variables a simulator process reads (PORT, CONTROL_TOKEN,
 * LONG_POLL_TIMEOUT_MS...), named by core's settings table so the two can never disagree. For a
 * simulator in another process: a container, a child process.
 */
export function settingsToEnv(settings: Partial<SimulatorSettings>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const spec of SETTINGS) {
    const value = settings[spec.key];
    if (value !== undefined) env[spec.env] = String(value);
  }
  return env;
}
