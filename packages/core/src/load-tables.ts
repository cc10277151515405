import { readFileSync } from 'node:fs';
import { ChannelCatalog, jsonChannelCatalog, legacyChannelCatalog } from './channel-catalog';
import { coreError } from './errors';
import type { SimulatorKind, SimulatorSettings } from './settings';
import { JSON_USERS, LEGACY_USERS, UserTable } from './users';

function readJson(path: string, what: 'USERS_INVALID' | 'CHANNELS_INVALID'): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw coreError(what, `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: err,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw coreError(what, `${path}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
}

/**
 * The channel catalog and users for a simulator: built in, or replaced by CHANNELS_FILE /
 * USERS_FILE. Files are read here, once, before a simulator is built: the factories take the
 * tables themselves, so whoever starts simulators (the CLI, the test kit) reads them the same way.
 */
export function loadTables(
  kind: SimulatorKind,
  settings: SimulatorSettings,
): { catalog: ChannelCatalog; users: UserTable } {
  const catalog = settings.channelsFile
    ? ChannelCatalog.fromJSON(readJson(settings.channelsFile, 'CHANNELS_INVALID'), settings.channelsFile)
    : kind === 'json'
      ? jsonChannelCatalog()
      : legacyChannelCatalog();
  const users = settings.usersFile
    ? UserTable.fromJSON(readJson(settings.usersFile, 'USERS_INVALID'), catalog, settings.usersFile)
    : UserTable.fromJSON(kind === 'json' ? JSON_USERS : LEGACY_USERS, catalog, `built-in ${kind} users`);
  return { catalog, users };
}
