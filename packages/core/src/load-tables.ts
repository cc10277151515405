import { readFileSync } from 'node:fs';
import { ChannelCatalog } from './channel-catalog';
import type { SimulatorDescription } from './description';
import { coreError } from './errors';
import type { SimulatorSettings } from './settings';
import { UserTable } from './users';

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
  description: Pick<SimulatorDescription, 'kind' | 'channels' | 'users'>,
  settings: SimulatorSettings,
): { catalog: ChannelCatalog; users: UserTable } {
  const catalog = settings.channelsFile
    ? ChannelCatalog.fromJSON(readJson(settings.channelsFile, 'CHANNELS_INVALID'), settings.channelsFile)
    : builtInCatalog(description);
  const users = settings.usersFile
    ? UserTable.fromJSON(readJson(settings.usersFile, 'USERS_INVALID'), catalog, settings.usersFile)
    : builtInUsers(description, catalog);
  return { catalog, users };
}

/** The channel catalog a simulator's description declares. */
export function builtInCatalog(description: Pick<SimulatorDescription, 'kind' | 'channels'>): ChannelCatalog {
  return ChannelCatalog.fromJSON(description.channels, `built-in ${description.kind} channels`);
}

/** The users a simulator's description declares, over a catalog (its own or CHANNELS_FILE's). */
export function builtInUsers(
  description: Pick<SimulatorDescription, 'kind' | 'users'>,
  catalog: ChannelCatalog,
): UserTable {
  return UserTable.fromJSON(description.users, catalog, `built-in ${description.kind} users`);
}
